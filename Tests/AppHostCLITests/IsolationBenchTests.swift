import Foundation
import Testing
import BuiltProducts

/// `subscriber-bench --only isolation`: the isolation rows run beside their floor, each checked
/// (the benchmark refuses to time an isolated path that does not answer as it must) and each with its
/// target's verdict, in the table and in `--json`. No figure is asserted: only that each was measured.
@Suite("subscriber-bench: the isolation rows")
struct IsolationBenchTests {
    @Test("--quick --only isolation --json: every isolated row, an idle child's memory, and a verdict per target")
    func isolationRows() async throws {
        let bench = BuiltProducts.file("subscriber-bench")
        let result = try await PluginMemoryTests.onOwnThread {
            try AppHostProcess.run(["--quick", "--only", "isolation", "--repetitions", "1", "--json"], program: bench)
        }
        try #require(result.status == 0, "subscriber-bench: status \(result.status), stderr \(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let isolation = try #require(report["isolation"] as? [String: Any], "no isolation object in \(report.keys.sorted())")
        for key in ["pingPongNanosecondsPerRoundTrip", "voidEventNanoseconds", "voidEventToPingPong",
                    "becomeActivePairOneSubscriberNanoseconds", "becomeActivePairTenSubscribersNanoseconds",
                    "furtherSubscriberNanoseconds", "openURLNanoseconds", "performFetchNanoseconds", "crashToAnswerMilliseconds"] {
            let figure = isolation[key] as? [String: Any]
            #expect((figure?["median"] as? Double).map { $0.isFinite } == true, "\(key): \(figure.map { "\($0)" } ?? "absent")")
        }
        // CPU time per event of both processes, for the floor and each event row (every child was found).
        let cpu = isolation["cpuNanosecondsPerEvent"] as? [String: Any] ?? [:]
        #expect(cpu.keys.sorted() == ["becomeActivePairOneSubscriber", "becomeActivePairTenSubscribers", "openURL", "performFetch",
                                      "pingPong", "voidEvent"], "\(cpu)")
        // The idle child was found (this process's one new child: its reaper, whose child is the worker).
        let memory = try #require(isolation["idleChildKiB"] as? [String: Double], "no idleChildKiB in \(isolation.keys.sorted())")
        #expect((memory["workerResident"] ?? 0) > 0 && (memory["reaperResident"] ?? 0) > 0, "\(memory)")
        let targets = (report["targets"] as? [[String: Any]] ?? []).filter {
            ($0["target"] as? String).map { $0.hasPrefix("isolated") || $0.contains("restarted child") } == true
        }
        #expect(targets.count == 6, "\(targets)")
        #expect(targets.allSatisfy { $0["met"] is Bool }, "a target without a verdict: \(targets)")
        let limits = report["limits"] as? [[String: Any]] ?? []
        #expect(limits.contains { $0["limit"] as? String == "socketpair ping-pong" })
    }
}
