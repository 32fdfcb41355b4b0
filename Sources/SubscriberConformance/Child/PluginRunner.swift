import Dispatch
import Foundation
import SubscriberKit

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
        let launch = ChildLaunch(executable: executable, environment: ChildProcess.childEnvironment(),
                                 channelVariable: ChildWire.channelVariable,
                                 firstMessage: Array(request.json.serialized().utf8), timeout: options.checkTimeout)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(ChildOutcome, ChildMessages), ConformanceSetupError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(ConformanceSetupError) -> (ChildOutcome, ChildMessages) in
                    var messages = ChildMessages()
                    let outcome = try ChildProcess.run(launch, receiver: &messages)
                    return (outcome, messages)
                })
            }
        }
        return try result.get()
    }

    /// The verdict a child's outcome amounts to. A child that never said hello is not ours: the kit
    /// cannot run. A verdict is the answer (unless the worker then crashed); a crash, a timeout or an
    /// exit without a verdict fail the check, naming what was running. Processes the plugin left
    /// running fail the check too.
    private func interpret(_ outcome: ChildOutcome, _ messages: ChildMessages, check: any ConformanceCheck)
        throws(ConformanceSetupError) -> (Verdict, PluginIdentity?)
    {
        guard let hello = messages.hello, hello.version == ChildWire.version else {
            let found = messages.hello.map { "protocol version \($0.version) instead of \(ChildWire.version)" }
                ?? "\(describe(messages.ended?.ending ?? outcome.ending)) without the handshake"
            throw .notAChild(executable: executableName, found: found + lastWords(outcome))
        }
        let ending = outcome.ending == .timedOut ? .timedOut : messages.ended?.ending ?? outcome.ending
        let doing = messages.progress.map { " during " + $0 } ?? ""
        var verdict: Verdict
        var identity: PluginIdentity?
        if let (answer, found) = messages.verdict {
            verdict = answer
            identity = found
            if case .signaled(let signal) = ending {
                verdict = .fail(expected: answer.evidence.expected, found: "\(answer.evidence.found); then crashed with "
                                + "\(ChildProcess.signalName(signal)) while exiting" + lastWords(outcome))
            }
        } else {
            let found: String
            switch ending {
            case .signaled(let signal):
                found = "crashed with \(ChildProcess.signalName(signal))\(doing)"
            case .timedOut:
                found = "did not finish within \(options.checkTimeout.readable) (killed)\(doing)"
            case .exited(let status):
                found = "exited with status \(status) before a verdict\(doing)"
            }
            var channel = ""
            if let failure = outcome.channelFailure { channel = "; its channel broke: \(failure)" }
            verdict = .fail(expected: check.expectation, found: found + channel + lastWords(outcome))
        }
        if let ended = messages.ended, ended.leftovers > 0 {
            verdict = leftoversVerdict(verdict, ended)
        }
        return (verdict, identity)
    }

    /// `verdict`, failed for the processes the plugin left running (which the reaper killed).
    private func leftoversVerdict(_ verdict: Verdict, _ ended: ChildWire.WorkerEnding) -> Verdict {
        var pids = ended.leftoverPIDs.prefix(10).map(String.init).joined(separator: ", ")
        if ended.leftovers > 10 { pids += ", …" }
        let left = "left \(ended.leftovers == 1 ? "1 process" : "\(ended.leftovers) processes") behind "
            + "(pids \(pids)), killed them"
        if verdict.status == .fail {
            return .fail(expected: verdict.evidence.expected, found: verdict.evidence.found + "; and " + left)
        }
        return .fail(expected: "no process started by the plugin still running when the check ends",
                     found: left + "; the check itself: " + verdict.evidence.found)
    }

    private var executableName: String {
        executable == ChildExecutable.running ? "the running executable" : executable
    }

    private func describe(_ ending: ChildOutcome.Ending) -> String {
        switch ending {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "a crash (\(ChildProcess.signalName(signal)))"
        case .timedOut: "no answer within \(options.checkTimeout.readable)"
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

/// What a child said on its channel, as far as it got: the parent's view of one check.
struct ChildMessages: ChildMessageReceiver {
    var hello: (version: Int, pid: Int32)?
    /// The last step announced.
    var progress: String?
    var verdict: (Verdict, PluginIdentity?)?
    var ended: ChildWire.WorkerEnding?

    mutating func receive(_ message: [UInt8]) {
        switch ChildWire.parse(message) {
        case .hello(let version, let pid)?: hello = (version, pid)
        case .progress(let step)?: progress = step
        case .verdict(let verdict, let identity)?: self.verdict = (verdict, identity)
        case .ended(let ending)?: ended = ending
        case nil: break
        }
    }

    var workerToStop: pid_t? { hello?.pid }
}
