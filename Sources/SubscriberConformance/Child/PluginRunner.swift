import ChildProcess
import Dispatch
import Foundation
import SubscriberKit
import SubscriberEventModel

/// Runs the selected checks on one plugin in the parent: one child process per check, in order,
/// skipping a check when one it requires failed (or was skipped for that reason).
struct PluginRunner {
    let plugin: String
    let checks: [any ConformanceCheck]
    let executable: String
    let seed: UInt64
    let options: ConformanceOptions

    func run() async throws(ConformanceSetupError) -> PluginReport {
        let clock = ContinuousClock()
        let start = clock.now
        let absolute = plugin.hasPrefix("/") ? plugin : FileManager.default.currentDirectoryPath + "/" + plugin
        let subscriberOptions = options.subscriberOptions(for: plugin)
        var blocked: [String: String] = [:]  // check id → why its dependents cannot run
        var identity: PluginIdentity?
        var results: [CheckResult] = []
        for check in checks {
            let result: CheckResult
            if let blocker = check.requires.first(where: { blocked[$0] != nil }) {
                result = CheckResult(id: check.id, summary: check.summary,
                                     verdict: .skip(expected: check.expectation, found: "needs \(blocker), which \(blocked[blocker]!)"),
                                     duration: .zero)
                blocked[check.id] = "was skipped"
            } else {
                let request = ChildRequest(check: check.id, plugin: absolute, seed: seed, options: options,
                                           subscriberOptions: subscriberOptions)
                let (outcome, messages) = try await spawn(request)
                let (verdict, found) = try interpret(outcome, messages, check: check)
                identity = identity ?? found
                result = CheckResult(id: check.id, summary: check.summary, verdict: verdict, duration: outcome.duration)
                if verdict.status == .fail { blocked[check.id] = "failed" }
            }
            results.append(result)
            options.onResult?(plugin, result)
        }
        return PluginReport(path: plugin, identity: identity, results: results, duration: clock.now - start)
    }

    /// Runs the child on a thread of its own (it blocks for up to the timeout).
    private func spawn(_ request: ChildRequest) async throws(ConformanceSetupError) -> (ChildOutcome, ChildMessages) {
        var made = ChildLaunch(executable: executable, environment: ChildProcess.childEnvironment(), role: ChildWire.role,
                                 firstMessages: [Array(request.json.serialized().utf8)], timeout: options.checkRunLimit)
        made.silence = options.checkTimeout
        let launch = made
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(ChildOutcome, ChildMessages), ChildProcessError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(ChildProcessError) -> (ChildOutcome, ChildMessages) in
                    var messages = ChildMessages()
                    let outcome = try ChildProcess.run(launch, receiver: &messages)
                    return (outcome, messages)
                })
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .spawnFailed(executable: error.executable, reason: error.reason)
        }
    }

    /// The verdict a child's outcome amounts to. A child that never said anything signed with the
    /// run's secret is not a conformance child: the kit cannot run. Otherwise the verdict is the
    /// answer (unless the worker then crashed); a crash, a timeout or an exit without a verdict fail
    /// the check, naming what was running. Anything on the channel but one handshake in this
    /// protocol and one verdict — a frame without the secret, another protocol version, a second
    /// verdict — fails the check, as do processes the plugin left running; never the run.
    private func interpret(_ outcome: ChildOutcome, _ messages: ChildMessages, check: any ConformanceCheck)
        throws(ConformanceSetupError) -> (Verdict, PluginIdentity?)
    {
        guard outcome.channel.signedFrames > 0 || outcome.channel.foreignFrames > 0 else {
            throw .notAChild(executable: executableName,
                             found: "\(describe(outcome.ending)) without the handshake" + lastWords(outcome))
        }
        let doing = messages.progress.map { " during " + $0 } ?? ""
        var verdict: Verdict
        var identity: PluginIdentity?
        if let (answer, found) = messages.verdicts.first {
            verdict = answer
            identity = found
            if case .signaled(let signal) = outcome.ending {
                verdict = .fail(expected: answer.evidence.expected, found: "\(answer.evidence.found)\nthen crashed with "
                                + "\(ChildProcess.signalName(signal)) while exiting" + lastWords(outcome))
            }
        } else {
            let found: String
            var expected = check.expectation
            switch outcome.ending {
            case .signaled(let signal):
                found = "crashed with \(ChildProcess.signalName(signal))\(doing)"
            case .timedOut:
                found = outcome.duration >= options.checkRunLimit
                    ? "did not finish within \(options.checkRunLimit.readable) (killed)\(doing)"
                    : "made no progress for \(options.checkTimeout.readable) (killed)\(doing)"
            case .exited(ChildWire.channelLostStatus) where outcome.channel.signedFrames > 0:
                // The worker's own word (its last line on stderr, quoted below) names the descriptors.
                expected = KitChannel.expectation
                found = "the plugin (or a library it loaded) closed the kit's private channel\(doing), so no verdict "
                    + "could be sent (the worker exited with status \(ChildWire.channelLostStatus))"
            case .exited(let status):
                found = "exited with status \(status) before a verdict\(doing)"
            }
            verdict = .fail(expected: expected, found: found + lastWords(outcome))
        }
        let problems = protocolProblems(outcome.channel, messages)
        if !problems.isEmpty {
            verdict = protocolVerdict(verdict, problems)
        }
        if let report = outcome.reaper, report.leftovers > 0 {
            verdict = leftoversVerdict(verdict, report)
        }
        return (verdict, identity)
    }

    /// What the channel carried besides one handshake in this protocol and one verdict, in words.
    private func protocolProblems(_ channel: ChannelReport, _ messages: ChildMessages) -> [String] {
        var problems: [String] = []
        if channel.foreignFrames > 0 {
            let first = ControlCharacters.escaped(ChildWire.cut(String(decoding: channel.firstForeignFrame, as: UTF8.self), to: 120))
            problems.append("\(plural(channel.foreignFrames, "frame")) without the run's secret, written to the kit's "
                            + "channel by other code in the check's process (the plugin, or a library it loaded), "
                            + "which was never given that descriptor; the first: '\(first)'")
        }
        if let failure = channel.failure { problems.append("the channel broke: \(failure)") }
        if messages.hellos.isEmpty {
            problems.append("no handshake")
        } else if messages.hellos.count > 1 {
            problems.append("\(messages.hellos.count) handshakes")
        }
        if let other = messages.hellos.first(where: { $0 != ChildWire.version }) {
            problems.append("a handshake in protocol version \(other), where the kit speaks \(ChildWire.version)")
        }
        if messages.verdicts.count > 1 { problems.append("\(messages.verdicts.count) verdicts, where a check's child gives one") }
        if messages.unreadable > 0 { problems.append("\(plural(messages.unreadable, "signed message")) the kit cannot read") }
        if channel.reaperReports > 1 { problems.append("\(channel.reaperReports) reports from the reaper, where it sends one") }
        return problems
    }

    /// `verdict`, failed for what the channel carried (one line each): the check cannot trust its
    /// child's word.
    private func protocolVerdict(_ verdict: Verdict, _ problems: [String]) -> Verdict {
        let carried = problems.map { "the kit's private channel carried " + $0 }.joined(separator: "\n")
        if verdict.status == .fail {
            return .fail(expected: verdict.evidence.expected, found: verdict.evidence.found + "\n" + carried)
        }
        return .fail(expected: "only the kit's own messages on its private channel (protocol \(ChildWire.version): one "
                     + "handshake, one verdict); a plugin writes to no descriptor it did not open",
                     found: carried + "\nthe check itself: " + verdict.evidence.found)
    }

    /// `verdict`, failed for the processes the plugin left running (which the reaper killed).
    private func leftoversVerdict(_ verdict: Verdict, _ ended: ReaperReport) -> Verdict {
        var pids = ended.leftoverPIDs.prefix(10).map(String.init).joined(separator: ", ")
        if ended.leftovers > 10 { pids += ", …" }
        let left = "left \(ended.leftovers == 1 ? "1 process" : "\(ended.leftovers) processes") behind "
            + "(pids \(pids)), killed them"
        if verdict.status == .fail {
            return .fail(expected: verdict.evidence.expected, found: verdict.evidence.found + "\n" + left)
        }
        return .fail(expected: "no process started by the plugin still running when the check ends",
                     found: left + "\nthe check itself: " + verdict.evidence.found)
    }

    private var executableName: String {
        executable == ChildExecutable.running ? "the running executable" : executable
    }

    private func describe(_ ending: ChildOutcome.Ending) -> String {
        switch ending {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "a crash (\(ChildProcess.signalName(signal)))"
        case .timedOut: "no progress within \(options.checkTimeout.readable)"
        }
    }

    /// The last line the child wrote on standard error ("Fatal error: …") and on standard output,
    /// escaped and cut, if any.
    private func lastWords(_ outcome: ChildOutcome) -> String {
        var words = ""
        if let line = lastLine(outcome.standardError) { words += "; its last words on stderr: \(line)" }
        if let line = lastLine(outcome.standardOutput) { words += "; its last output on stdout: \(line)" }
        return words
    }

    private func lastLine(_ output: CapturedOutput) -> String? {
        let text = String(decoding: output.kept.suffix(4_096), as: UTF8.self)
        guard let last = text.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        else { return nil }
        let shown = last.count > 300 ? "…" + last.suffix(300) : Substring(last)
        return "'" + ControlCharacters.escaped(String(shown)) + "'"
    }
}

/// What a check's child said on its channel (signed frames only), as far as it got: the parent's
/// view of one check. Kept whole, so that a second handshake or verdict is seen, not replaced.
struct ChildMessages: ChildMessageReceiver {
    /// The protocol version of each handshake, in order.
    var hellos: [Int] = []
    /// The last step announced.
    var progress: String?
    /// Every verdict, in order (one is right).
    var verdicts: [(Verdict, PluginIdentity?)] = []
    /// Signed messages that do not read as any of the kit's.
    var unreadable = 0

    mutating func receive(_ message: [UInt8]) {
        switch ChildWire.parse(message) {
        case .hello(let version)?: hellos.append(version)
        case .progress(let step)?: progress = step
        case .verdict(let verdict, let identity)?: verdicts.append((verdict, identity))
        case nil: unreadable += 1
        }
    }
}
