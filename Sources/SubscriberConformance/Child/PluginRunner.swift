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
                let request = ChildRequest(check: check.id, plugin: absolute, seed: seed, options: options)
                let outcome = try await spawn(request)
                let (verdict, found) = try interpret(outcome, check: check)
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
    private func spawn(_ request: ChildRequest) async throws(ConformanceSetupError) -> ChildOutcome {
        let executable = executable
        let timeout = options.checkTimeout
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ChildOutcome, ConformanceSetupError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(ConformanceSetupError) -> ChildOutcome in
                    try ChildProcess.run(executable: executable,
                                         arguments: [ConformanceKit.childCommandName, request.json.serialized()],
                                         environment: ChildProcess.childEnvironment(), timeout: timeout)
                })
            }
        }
        return try result.get()
    }

    /// The verdict a child's outcome amounts to. A child that never said hello is not ours: the kit
    /// cannot run. A verdict line is the answer (unless the child then crashed); a crash, a timeout
    /// or an exit without a verdict fail the check, naming what was running.
    private func interpret(_ outcome: ChildOutcome, check: any ConformanceCheck) throws(ConformanceSetupError)
        -> (Verdict, PluginIdentity?)
    {
        let lines = String(decoding: outcome.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.contains(ChildWire.helloLine) else {
            throw .notAChild(executable: executable, found: "\(describe(outcome.ending)) without the handshake"
                             + stderrTail(outcome))
        }
        let doing = lines.last { $0.hasPrefix(ChildWire.progressPrefix) }
            .map { " during " + $0.dropFirst(ChildWire.progressPrefix.count) } ?? ""
        if let line = lines.last(where: { $0.hasPrefix(ChildWire.verdictPrefix) }),
           let json = try? JSONValue(parsing: String(line.dropFirst(ChildWire.verdictPrefix.count))),
           let (verdict, identity) = ChildWire.parseVerdict(json) {
            if case .signaled(let signal) = outcome.ending {
                let found = "\(verdict.evidence.found); then crashed with \(ChildProcess.signalName(signal)) while exiting"
                return (.fail(expected: verdict.evidence.expected, found: found), identity)
            }
            return (verdict, identity)
        }
        let found: String
        switch outcome.ending {
        case .signaled(let signal):
            found = "crashed with \(ChildProcess.signalName(signal))\(doing)" + stderrTail(outcome)
        case .timedOut:
            found = "did not finish within \(options.checkTimeout.readable) (killed)\(doing)"
        case .exited(let status):
            found = "exited with status \(status) before a verdict\(doing)" + stderrTail(outcome)
        }
        return (.fail(expected: check.expectation, found: found), nil)
    }

    private func describe(_ ending: ChildOutcome.Ending) -> String {
        switch ending {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "a crash (\(ChildProcess.signalName(signal)))"
        case .timedOut: "no answer within \(options.checkTimeout.readable)"
        }
    }

    /// The last line the child wrote on standard error ("Fatal error: …"), if any.
    private func stderrTail(_ outcome: ChildOutcome) -> String {
        let text = String(decoding: outcome.standardError.suffix(2_000), as: UTF8.self)
        guard let last = text.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            return ""
        }
        return "; its last words: \(last.prefix(300))"
    }
}
