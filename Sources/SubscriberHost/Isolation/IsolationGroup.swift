#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import SubscriberKit
import SubscriberEventModel

/// The plugins of one isolation group and the child that hosts them: it starts the child, learns
/// its subscribers from the hello, sends each event once for all of them, restarts the child after
/// a crash or a hang within its restart budget, then disables it. Its subscribers reach it through
/// one ``IsolatedTransport`` each. [main-thread]
///
/// Call order: the dispatcher calls responders in its order. The first responder of this child
/// for an event sends the event with the list of every responder of this child for it, in the
/// dispatcher's order from there on; the child calls them in that order and replies once with all
/// their answers; the later responders of this child take theirs from that reply when the
/// dispatcher reaches them. Answers are read in dispatch order, so reconcilers see what they see
/// in-process; only the moment of the calls moves: a child's subscribers run together, when the
/// first of them is reached. Where a rule stops at the first YES (Flutter's fan-out) or hands
/// options to the first responder only, each responder gets a round trip of its own, so that
/// exactly the responders the rule calls are called.
@MainActor
package final class IsolationGroup {
    /// One plugin of the group.
    package struct Plugin: Sendable {
        package let entry: ManifestPlugin
        /// The file, located by the host (never mapped by it).
        package let path: String
        /// How reports name it: its file's name.
        package var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    package let plugins: [Plugin]
    /// The settings of the group (its first plugin's: a group shares one child).
    package let isolation: PluginIsolation
    private let setup: JSONObject
    private let environment: [String: String]
    private let log: HostLogRecorder
    private(set) var connection: IsolationConnection?
    /// The subscribers, in hello order: names, plugin of each, events each responds to (by index).
    package private(set) var names: [String] = []
    package private(set) var pluginOf: [Int] = []
    private var responding: [[Bool]] = []
    private(set) var isDisabled = false
    private var budget: RestartBudget
    private var seq: UInt64 = 0
    /// Whether the current child's end has been reported.
    private var endReported = true
    /// The last reply: the event's serial and each listed subscriber's answer.
    private var batchSerial: UInt64 = 0
    private var batch: [Int: JSONObject] = [:]
    /// The serial of the event during which the child last ended.
    private var endedSerial: UInt64 = 0
    /// The launch invocation the current child was last sent (the outer nil: none yet): sent again
    /// only when it changes, and to every new child.
    private var sentLaunch: LaunchInvocation??
    /// Per event: this child's responders and their positions among the dispatcher's names, as last seen.
    private var order: [Int: [(local: Int, position: Int)]] = [:]

    /// Starts the child of `plugins` and reads its hello. Throws one line when the child cannot start,
    /// or a plugin fails a check or its `create` there.
    package init(plugins: [Plugin], application: Application, allowWritable: Bool, log: HostLogRecorder) throws(IsolationStartError) {
        self.plugins = plugins
        isolation = plugins[0].entry.isolation
        budget = RestartBudget(isolation.restart)
        self.log = log
        environment = Self.minimalEnvironment()
        var limits: JSONObject = [:]
        if let value = isolation.limits.memoryMiB { limits["memoryMiB"] = .number(Double(value)) }
        if let value = isolation.limits.cpuSeconds { limits["cpuSeconds"] = .number(Double(value)) }
        if let value = isolation.limits.openFiles { limits["openFiles"] = .number(Double(value)) }
        setup = [
            "wire": .number(Double(IsolationWire.version)),
            "app": .object(application.infoJSON), "allowWritable": .bool(allowWritable), "limits": .object(limits),
            "plugins": .array(plugins.map { plugin in
                var object: JSONObject = ["path": .string(plugin.path),
                                          "subscribers": .array(plugin.entry.subscribers.map { .string($0) })]
                if let digest = plugin.entry.sha256 { object["sha256"] = .string(digest.hex) }
                // Each subscriber's options are the entry's with its own laid over them; the child asks by name.
                var options = JSONObject()
                for name in plugin.entry.subscribers + plugin.entry.subscriberOptionNames where options[name] == nil {
                    options[name] = plugin.entry.options(for: name)
                }
                object["options"] = .object(options)
                object["sharedOptions"] = plugin.entry.options
                return .object(object)
            }),
        ]
        let hello = try start()
        names = hello.names
        pluginOf = hello.plugins
        responding = hello.responding
    }

    /// The environment a child gets: the few variables programs expect, nothing of the host's secrets.
    static func minimalEnvironment() -> [String: String] {
        let all = ChildProcess.childEnvironment()
        var kept = all.filter { key, _ in
            ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "LD_LIBRARY_PATH"].contains(key) || key.hasPrefix("XDG_")
        }
        kept["SWIFT_BACKTRACE"] = "enable=no"  // a crashing plugin dies at once
        return kept
    }

    /// Starts a child and waits for its hello (startup is not a synchronous event: a generous bound).
    private func start() throws(IsolationStartError) -> (names: [String], plugins: [Int], responding: [[Bool]]) {
        let connection: IsolationConnection
        do {
            connection = try IsolationConnection(setup: setup, environment: environment, log: log,
                                                 outputName: plugins[0].entry.subscribers.first ?? plugins[0].name)
        } catch {
            throw IsolationStartError(plugin: plugins[0], reason: error.description)
        }
        switch connection.roundTrip(nil, seq: 0, budgetMilliseconds: max(30_000, isolation.callBudgetMilliseconds)) {
        case .ended(let ending):
            let words = connection.lastWords
            throw IsolationStartError(plugin: plugins[0], reason: "its child ended before it said hello: \(ending)"
                                        + (words.isEmpty ? "" : "; its last words: " + words.joined(separator: " / ")))
        case .reply(let hello):
            if let error = hello["error"]?.stringValue {
                connection.kill()
                let index = hello["plugin"]?.intValue.flatMap { plugins.indices.contains($0) ? $0 : nil } ?? 0
                let check = hello["check"]?.intValue.flatMap { (1...10).contains($0) ? $0 : nil }
                throw IsolationStartError(plugin: plugins[index], reason: IsolationWire.cut(error, toBytes: IsolationStartError.maximumReasonBytes),
                                          loadCheck: check)
            }
            var names: [String] = [], pluginOf: [Int] = [], responding: [[Bool]] = []
            let rows = EventTable.rows
            for item in hello["subscribers"]?.arrayValue ?? [] {
                guard let name = item["name"]?.stringValue, let plugin = item["plugin"]?.intValue, plugins.indices.contains(plugin),
                      !names.contains(name), names.count < 65_536
                else {
                    connection.kill()
                    throw IsolationStartError(plugin: plugins[0], reason: "its child's hello is malformed: \(item)")
                }
                let events = Set((item["events"]?.arrayValue ?? []).compactMap(\.stringValue))
                names.append(name)
                pluginOf.append(plugin)
                responding.append(rows.map { events.contains($0.name) })
            }
            connection.setNames(names)
            self.connection = connection
            endReported = false
            sentLaunch = nil
            return (names, pluginOf, responding)
        }
    }

    /// Whether subscriber `local` responds to `event`: never once the group is disabled (its
    /// subscribers are then absent, with no row, from the next event on).
    func responds(_ local: Int, to event: LifecycleEvent) -> Bool { !isDisabled && responding[local][event.index] }

    /// Called once the group is disabled, on the main actor (the host rebuilds its responder lists,
    /// taking effect from the next event, as a subscriber removed from inside an event does).
    var onDisabled: (@MainActor () -> Void)?

    // MARK: Events

    /// The answer of subscriber `local` (the dispatcher's `subscriber`) to the event of `context`:
    /// from the last reply when this event's batch was sent already, else from a new round trip
    /// (restarting the child first if it ended). Nil when the subscriber gets no call: disabled, or
    /// its child ended during the event (reported).
    func answer(for local: Int, subscriber: Int, _ context: DeliveryContext, arguments: () -> JSONObject) -> JSONObject? {
        if batchSerial == context.serial, let answer = batch.removeValue(forKey: local) { return answer }
        // Its child ended during this event: the rest of it gets no call (restarts wait for the next event).
        if endedSerial == context.serial { return nil }
        guard ensureRunning(context), let connection else { return nil }
        let listed = batchList(from: local, subscriber: subscriber, context)
        seq &+= 1
        var message: JSONObject = [
            "seq": .number(Double(seq)), "event": .string(context.event.row.name), "arguments": .object(arguments()),
            "state": .number(Double(context.application.applicationState.rawValue)),
            "deadline": .number(Double(context.deadline)), "subscribers": .array(listed.map { .number(Double($0)) }),
        ]
        if context.stopsAtFirstYes { message["stopsAtFirstYes"] = true }
        // What a subscriber reads besides the state: how the app was launched (when it changed).
        let launch = context.application.launchInvocation
        if sentLaunch != .some(launch) {
            message["launch"] = IsolationWire.launch(launch)
            sentLaunch = .some(launch)
        }
        switch connection.roundTrip(IsolationWire.payload(.event, message), seq: seq, budgetMilliseconds: isolation.callBudgetMilliseconds) {
        case .ended(let ending):
            reportEnd(ending, local: local, context, batch: listed)
            return nil
        case .reply(let reply):
            var answers: [Int: JSONObject] = [:]
            var reports: [DispatchReport] = []
            do throws(IsolationWireError) {
                reports = try IsolationWire.reports(reply["r"], names: names, in: .reply)
            } catch {
                malformed(error.description, local: local, context)
                return nil
            }
            for item in reply["answers"]?.arrayValue ?? [] {
                guard let object = item.objectValue, let index = object["s"]?.intValue, listed.contains(index), answers[index] == nil else {
                    connection.kill()
                    reportEnd(.malformed("expected answers of subscribers \(listed), found \(item)"), local: local, context)
                    return nil
                }
                do throws(IsolationWireError) {
                    reports += try IsolationWire.reports(object["r"], names: names, in: .reply)
                } catch {
                    malformed(error.description, local: local, context)
                    return nil
                }
                answers[index] = object
            }
            // The child's completion reports, named by the host, in this event's outcome (as in process).
            for report in reports { context.lateReports.append(report) }
            batchSerial = context.serial
            batch = answers
            return batch.removeValue(forKey: local)
        }
    }

    /// Kills the child after an answer that does not read (a malformed message) and reports it.
    func malformed(_ what: String, local: Int, _ context: DeliveryContext) {
        connection?.kill()
        reportEnd(.malformed(what), local: local, context)
    }

    /// Registers the completion `local` owes for the last event sent.
    func awaitCompletion(_ local: Int, _ handler: @escaping @Sendable (JSONObject) throws(IsolationWireError) -> Void) {
        connection?.awaitCompletion(seq: seq, subscriber: local, handler)
    }

    /// This child's responders to the event, in the dispatcher's order, from `local` on (only
    /// `local` under the rules that need one round trip per responder).
    private func batchList(from local: Int, subscriber: Int, _ context: DeliveryContext) -> [Int] {
        if context.stopsAtFirstYes || context.optionsToFirstOnly { return [local] }
        let names = context.names
        var known = order[context.event.index] ?? []
        if !known.allSatisfy({ $0.position < names.count && names[$0.position] == self.names[$0.local] }) || known.isEmpty {
            let mine = Dictionary(uniqueKeysWithValues: self.names.enumerated().map { ($1, $0) })
            known = names.enumerated().compactMap { position, name in
                mine[name].flatMap { responding[$0][context.event.index] ? (local: $0, position: position) : nil }
            }
            order[context.event.index] = known
        }
        let listed = known.filter { $0.position >= subscriber }.map(\.local)
        return listed.contains(local) ? listed : [local]
    }

    /// Makes sure a child runs before an event: restarts an ended one within the budget, reporting
    /// its end (if not yet) and the restart; disables the group past the budget, reported once.
    private func ensureRunning(_ context: DeliveryContext) -> Bool {
        if isDisabled { return false }
        if let connection, !connection.hasEnded { return true }
        if let ending = connection?.ending, !endReported { reportEnd(ending, local: nil, context) }
        guard budget.take(at: context.clock.nanoseconds()) else {
            isDisabled = true
            connection = nil
            onDisabled?()
            for plugin in plugins {
                context.lateReports.append(.disabled(plugin: plugin.name, event: context.event, restarts: isolation.restart.max,
                                                     withinSeconds: isolation.restart.withinSeconds))
            }
            return false
        }
        do throws(IsolationStartError) {
            let hello = try start()
            guard hello.names == names else {
                connection?.kill()
                throw IsolationStartError(plugin: plugins[0], reason: "its restarted child made \(hello.names), expected \(names)")
            }
        } catch {
            log.log(subscriber: names.first ?? plugins[0].name, level: .error, message: error.description)
            isDisabled = true
            connection = nil
            onDisabled?()
            for plugin in plugins {
                context.lateReports.append(.disabled(plugin: plugin.name, event: context.event, restarts: budget.used,
                                                     withinSeconds: isolation.restart.withinSeconds))
            }
            return false
        }
        for plugin in plugins {
            context.lateReports.append(.restarted(plugin: plugin.name, event: context.event, restart: budget.used,
                                                  max: isolation.restart.max))
        }
        return true
    }

    /// Reports how the child ended, once per child: `hung` or `crashed`, naming the plugin and the
    /// subscriber whose call was under way (nil: between events, noticed at this one).
    private func reportEnd(_ ending: ChildEnding, local: Int?, _ context: DeliveryContext, batch listed: [Int]? = nil) {
        endedSerial = context.serial
        guard !endReported else { return }
        endReported = true
        batch = [:]
        // A child ended during a batch cannot say whose call it was in: the report names the batch.
        let locals = listed ?? local.map { [$0] } ?? []
        var pluginNames: [String] = []
        for index in locals.map({ pluginOf[$0] }) where !pluginNames.contains(plugins[index].name) { pluginNames.append(plugins[index].name) }
        let plugin = pluginNames.isEmpty ? plugins.map(\.name).joined(separator: " or ") : pluginNames.joined(separator: " or ")
        let subscriber = locals.isEmpty ? nil : locals.map { names[$0] }.joined(separator: " or ")
        switch ending {
        case .hung(let budget):
            context.lateReports.append(.hung(plugin: plugin, subscriber: subscriber ?? "", event: context.event,
                                             budgetMilliseconds: budget))
        case .crashed(let how):
            context.lateReports.append(.crashed(plugin: plugin, subscriber: subscriber, event: context.event, found: how))
        case .malformed(let what):
            context.lateReports.append(.crashed(plugin: plugin, subscriber: subscriber, event: context.event,
                                                found: "a malformed frame: \(what) (killed)"))
        }
    }

    /// The completion reports the child's farewell carried (calls after its last event, or during
    /// `destroy`), until taken: for the host's leftovers, as in process.
    private var farewellReports: [DispatchReport] = []

    /// Takes the reports of the farewell (once).
    func takeFarewellReports() -> [DispatchReport] {
        defer { farewellReports = [] }
        return farewellReports
    }

    /// Says goodbye (its subscribers are destroyed, their last lines logged), waits a bounded time
    /// for the farewell, then kills what is left.
    func shutDown() {
        guard let connection, !connection.hasEnded else { return }
        seq &+= 1
        // Bounded by the call budget (at least 2 s): a destroy that hangs is killed with its child.
        let farewell = connection.roundTrip(IsolationWire.payload(.goodbye, ["seq": .number(Double(seq))]), seq: seq,
                                            budgetMilliseconds: max(2_000, isolation.callBudgetMilliseconds))
        // No event is under way to report on: the host's last log lines say it.
        if case .reply(let message) = farewell {
            do throws(IsolationWireError) {
                farewellReports = try IsolationWire.reports(message["r"], names: names, in: .farewell)
            } catch {
                log.log(subscriber: names.first ?? plugins[0].name, level: .error,
                        message: "\(plugins.map(\.name).joined(separator: " and ")) (isolated): its farewell does not read: \(error)")
            }
        }
        if case .ended(let ending) = farewell {
            log.log(subscriber: names.first ?? plugins[0].name, level: .error,
                    message: "\(plugins.map(\.name).joined(separator: " and ")) (isolated) ended while its subscribers were destroyed: \(ending)")
        }
        connection.kill()
        self.connection = nil
    }

}

extension IsolationGroup {
    /// Reloads the group (`apphost send --reload`): starts a new child from the plugins' files as they
    /// are now — every load-time check and pin again, the subscribers made anew — and only then says
    /// goodbye to the old child. From the next event on the new child answers, enabled again, with
    /// its restart budget whole. Throws one line, and the old child keeps serving, when the new one
    /// cannot start or makes other subscribers (names, in order) than the old one did.
    package func reload() throws(IsolationStartError) {
        let old = connection
        let oldEndReported = endReported
        let hello = try start()  // sets `connection` only once the new child said hello
        guard hello.names == names else {
            connection?.kill()
            (connection, endReported) = (old, oldEndReported)
            throw IsolationStartError(plugin: plugins[0], reason: "its reloaded child made the subscribers \(hello.names), "
                                        + "expected \(names) (the same names, in the same order: restart the app to change them)")
        }
        (pluginOf, responding) = (hello.plugins, hello.responding)
        (order, batch, batchSerial, isDisabled) = ([:], [:], 0, false)
        budget = RestartBudget(isolation.restart)
        guard let old else { return }
        if !old.hasEnded {
            seq &+= 1
            _ = old.roundTrip(IsolationWire.payload(.goodbye, ["seq": .number(Double(seq))]), seq: seq,
                              budgetMilliseconds: max(2_000, isolation.callBudgetMilliseconds))
        }
        old.kill()
    }
}

/// A child that could not start serving: which plugin, and why, in one line.
package struct IsolationStartError: Error, Sendable, CustomStringConvertible {
    package let plugin: IsolationGroup.Plugin
    package let reason: String
    /// The load-time check (1…10) that failed in the child, whose line `reason` is (as the host's
    /// loader says it in process); nil when the child could not be started or spoke wrongly.
    package var loadCheck: Int? = nil

    /// The longest line a child's load error keeps, in bytes (a child's words are bounded).
    package static let maximumReasonBytes = 4_096

    package var description: String { "\(plugin.entry.keyPath) \"\(plugin.path)\" (isolated): \(reason)" }
}
