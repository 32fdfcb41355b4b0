import Glibc
import Testing
import SubscriberKit
@testable import SubscriberHost

/// The benchmark's load section loads N copies of libBenchSubscribers.so through a manifest, each
/// declaring one subscriber named after its copy's file. The host maps a plugin as
/// /proc/self/fd/N, so the name must come from the file behind that descriptor: its inode, which
/// the plugin reads with one `fstat` (the file's name would take a readlink through /proc).
@MainActor
@Suite("Loader: the benchmark's load probe is named after its copy's file")
struct LoaderBenchProbeTests {
    @Test("two copies loaded through a manifest each declare LoadProbe@inode-<their file's inode>")
    func probeNamedAfterCopy() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        var names: [String] = []
        for name in ["libBench-0007.so", "libBench-0008.so"] {
            let copy = try folder.copy(BuiltPlugins.path("BenchSubscribers"), to: name)
            var info = stat()
            try #require(stat(copy, &info) == 0)
            names.append("LoadProbe@inode-\(info.st_ino)")
        }
        #expect(names[0] != names[1])
        let path = try folder.write("bench.json", withApp(#"""
            "plugins": [{"path": "libBench-0007.so", "subscribers": ["\#(names[0])"]},
                        {"path": "libBench-0008.so", "subscribers": ["\#(names[1])"]}]
            """#))
        let host = try PluginHost(manifestAt: path)
        defer { host.shutDown() }
        #expect(host.subscribers.map(\.name) == names)
    }
}
