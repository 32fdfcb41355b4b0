import SubscriberHost
import SubscriberKit
import Synchronization

/// What the kit's host saw a plugin do against the contract besides its answers: strings it cannot
/// read (too long — `(size_t)-1` among them — or NULL data with a length) in host calls, answers
/// and completion payloads, and completion calls with a token it never gave. One per check child;
/// the checks turn it into evidence. Calls arrive on any thread.
///
/// Bounded: checks make thousands of calls, so only the first ``keptLimit`` descriptions are kept;
/// every one is counted.
final class HostCallProblems: Sendable {
    /// How many string-problem descriptions are kept (the rest are only counted).
    static let keptLimit = 8

    private struct State {
        var strings: [String] = []
        var stringCount = 0
    }

    private let state = Mutex(State())
    /// ``CompletionTokens/unknownCount`` when this record was made: the calls counted since are this
    /// child's.
    private let unknownTokensBefore = CompletionTokens.shared.unknownCount

    /// A string in `call` that cannot be read: "log: expected a string of at most 64 MiB with data,
    /// found length 18446744073709551615". [any-thread]
    func recordString(_ problem: ABIStringProblem, in call: String) {
        record("\(call): \(problem)")
    }

    /// One line of the host's own report of a string problem (already naming the call). [any-thread]
    fileprivate func record(_ line: String) {
        state.withLock { state in
            state.stringCount += 1
            if state.strings.count < Self.keptLimit { state.strings.append(line) }
        }
    }

    /// The string problems, as evidence, one per line after a line counting them: nil when there
    /// were none. [any-thread]
    var stringEvidence: String? {
        let (kept, count) = state.withLock { ($0.strings, $0.stringCount) }
        guard count > 0 else { return nil }
        let more = count > kept.count ? ["and \(count - kept.count) more"] : []
        return (["\(plural(count, "string")) the host cannot read:"] + kept + more).joined(separator: "\n")
    }

    /// Completion calls with a token the host never issued (or long forgot) that could not be
    /// attributed to one entry call (made on another thread, or after the entry returned). [any-thread]
    var unknownTokenCalls: Int { CompletionTokens.shared.unknownCount - unknownTokensBefore }

    /// A log sink for the subscribers the kit makes through the host's bridge: keeps none of the
    /// plugin's own lines (checks judge behaviour, and keeping thousands would show up as memory
    /// growth) but records the bridge's reports of strings it could not read.
    var sink: some SubscriberLogSink { RecordingSink(problems: self) }

    private struct RecordingSink: SubscriberLogSink {
        let problems: HostCallProblems

        /// The bridge reports an unreadable string as an error record "<call>: <problem>" attributed
        /// to the subscriber, the problem being ``ABIStringProblem``'s description, which starts with
        /// this ("expected a string of at most 64 MiB with data"). A plugin that logs such a line
        /// itself only fails itself; it cannot hide the bridge's reports.
        static let problemStart: String = {
            let sample = ABIStringProblem.of(data: nil, length: 1)?.description ?? ""
            return String(sample.prefix { $0 != "," })
        }()

        func log(subscriber: String, level: LogLevel, message: String) {
            // A log level outside the header's ("log: level 99, expected 0 (ADH_LOG_TRACE) to …").
            let badLevel = message.hasPrefix("log: level ") && message.contains(", expected 0 (ADH_LOG_TRACE)")
            guard level == .error, badLevel || message.contains(": " + Self.problemStart) else { return }
            // What the host then did ("; read as {}") is the host's business, not the plugin's defect.
            let problem = message.range(of: "; read as ").map { String(message[..<$0.lowerBound]) } ?? message
            problems.record("\(subscriber): \(problem)")
        }

        func logEvent(subscriber: String, name: String, attributes: JSONObject) {}
        func logError(subscriber: String, message: String, attributes: JSONObject) {}
    }
}
