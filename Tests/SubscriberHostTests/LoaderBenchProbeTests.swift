import Testing
import SubscriberKit
@testable import SubscriberHost

/// The benchmark's load section loads N copies of libBenchSubscribers.so through a manifest, each
/// declaring one subscriber named after its copy's file. The host maps a plugin as
/// /proc/self/fd/N, so the name must come from the file behind that descriptor.
@MainActor
@Suite("Loader: the benchmark's load probe is named after its copy's file")
struct LoaderBenchProbeTests {
    @Test("two copies loaded through a manifest each declare LoadProbe@<their file name>")
    func probeNamedAfterCopy() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        for name in ["libBench-0007.so", "libBench-0008.so"] {
            _ = try folder.copy(BuiltPlugins.path("BenchSubscribers"), to: name)
        }
        let path = try folder.write("bench.json", withApp(#"""
            "plugins": [{"path": "libBench-0007.so", "subscribers": ["LoadProbe@libBench-0007.so"]},
                        {"path": "libBench-0008.so", "subscribers": ["LoadProbe@libBench-0008.so"]}]
            """#))
        let host = try PluginHost(manifestAt: path)
        defer { host.shutDown() }
        #expect(host.subscribers.map(\.name) == ["LoadProbe@libBench-0007.so", "LoadProbe@libBench-0008.so"])
    }
}
