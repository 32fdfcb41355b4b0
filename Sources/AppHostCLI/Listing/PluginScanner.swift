#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import SubscriberHost
import SubscriberKit

/// Inspects plugin files in a child process, never in this one: one child for all the files of a
/// listing (GStreamer's scanner), restarted for the files after one that killed or hung it. The file
/// the child was inspecting when it died, or when it went silent for ``silence``, is pinned to that
/// file: its inspection crashed or hung, with the reason.
package struct PluginScanner: Sendable {
    /// One file to inspect: its item number (the manifest entry's index), the message asking for
    /// it, and the file it is (items of one file share its fate when one of them kills the child).
    struct Item: Sendable {
        var index: Int
        var request: [UInt8]
        var file: String
    }

    /// What became of one item.
    enum Outcome: Sendable {
        /// The child's report (`{"done": N, …}`, see ``PluginScanWire``).
        case reported(JSONObject)
        /// The child died or hung inspecting it.
        case failed(ScanRecord.Failure)
        /// No child could inspect it: why.
        case notInspected(String)
    }

    /// The executable started as the child: the running one.
    package var executable = "/proc/self/exe"
    /// How long the child may go without reporting progress before it is stopped as hung: per
    /// file, as every file starts and ends with a message. `APPHOST_SCAN_BUDGET_MS` sets it.
    package var silence: Duration
    /// The default budget of silence per file.
    package static let defaultSilence = Duration.seconds(10)

    /// A scanner with the given budget of silence, or the environment's (`APPHOST_SCAN_BUDGET_MS`,
    /// 100 to 600000), or ``defaultSilence``.
    package init(silence: Duration? = nil) {
        if let silence {
            self.silence = silence
        } else if let text = getenv("APPHOST_SCAN_BUDGET_MS").map({ String(cString: $0) }), let value = Int(text),
                  (100...600_000).contains(value) {
            self.silence = .milliseconds(value)
        } else {
            self.silence = Self.defaultSilence
        }
    }

    /// Inspects `items` in order (a child at a time), the header first in every child.
    func scan(header: [UInt8], items: [Item]) -> [Int: Outcome] {
        var outcomes: [Int: Outcome] = [:]
        var remaining = items
        while !remaining.isEmpty {
            var receiver = Receiver(expected: Set(remaining.map(\.index)))
            var launch = ChildLaunch(executable: executable, environment: ChildProcess.childEnvironment(),
                                     role: PluginScanWire.role,
                                     firstMessages: [header] + remaining.map(\.request) + [PluginScanWire.bytes(["end": true])],
                                     timeout: silence * (remaining.count + 2))
            launch.silence = silence
            let outcome: ChildOutcome
            do {
                outcome = try ChildProcess.run(launch, receiver: &receiver)
            } catch {
                for item in remaining { outcomes[item.index] = .notInspected(error.description) }
                break
            }
            for (index, report) in receiver.done { outcomes[index] = .reported(report) }
            if let current = receiver.current, let item = remaining.first(where: { $0.index == current }) {
                let failure = ScanRecord.Failure(reason: Self.reason(outcome, creating: receiver.creating),
                                                 date: ScanRecord.Failure.now())
                // Every item of that file would do the same: it is pinned to all of them.
                for other in remaining where other.file == item.file && outcomes[other.index] == nil {
                    outcomes[other.index] = .failed(failure)
                }
            } else if receiver.done.isEmpty {
                // It died before the first file: nothing to pin it on, and no reason to try again.
                let reason = "the scanner child \(Self.ending(outcome.ending)) before scanning it"
                for item in remaining where outcomes[item.index] == nil { outcomes[item.index] = .notInspected(reason) }
            }
            remaining.removeAll { outcomes[$0.index] != nil }
        }
        return outcomes
    }

    /// "crashed with SIGSEGV while being loaded (dlopen, adh_plugin_entry)", "hung …".
    static func reason(_ outcome: ChildOutcome, creating: Bool) -> String {
        let stage = creating ? "while making or destroying its subscribers (create, destroy)"
            : "while being loaded (dlopen, adh_plugin_entry)"
        return "\(ending(outcome.ending)) \(stage)"
    }

    /// "crashed with SIGSEGV", "exited with status 3", "hung".
    private static func ending(_ ending: ChildOutcome.Ending) -> String {
        switch ending {
        case .signaled(let signal): "crashed with \(ChildProcess.signalName(signal))"
        case .exited(let status): "exited with status \(status)"
        case .timedOut: "hung (no progress within its budget)"
        }
    }

    /// Follows the child's messages: the item it is on, and what it reported. Indices the parent
    /// did not ask for, and anything that does not read, are ignored.
    struct Receiver: ChildMessageReceiver {
        let expected: Set<Int>
        /// The item started and not done yet.
        var current: Int?
        /// Whether the current item reached its subscribers.
        var creating = false
        /// The reports received, by item.
        var done: [Int: JSONObject] = [:]

        init(expected: Set<Int>) {
            self.expected = expected
        }

        mutating func receive(_ message: [UInt8]) {
            guard let object = (try? JSONValue(parsing: message))?.objectValue else { return }
            if let index = object["start"]?.intValue, expected.contains(index) {
                current = index
                creating = false
            } else if let index = object["create"]?.intValue, index == current {
                creating = true
            } else if let index = object["done"]?.intValue, index == current {
                done[index] = object
                current = nil
            }
        }
    }
}
