import Testing
@testable import AppHostCLI

/// A `/proc/self/maps` line mapping `path` (inode `inode`) at `start` for one page.
private func mapping(_ start: UInt, inode: UInt64, _ path: String) -> String {
    let begin = String(start, radix: 16), end = String(start + 0x1000, radix: 16)
    return "\(begin)-\(end) r-xp 00000000 fd:01 \(inode)                    \(path)"
}

/// `/proc/self/maps`' text for `lines`.
private func maps(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

/// The plugin map names the plugin a crash or an `exit()` came from. It learns where plugins lie
/// from `/proc/self/maps` once they are loaded: linear in the lines and the plugins.
@Suite("Plugin map: where each plugin lies, learnt in linear time")
struct PluginMapTests {
    @Test("20,000 plugins of five mappings each: every range found, each file examined once")
    func linearInPlugins() {
        // Quadratic (every line against every plugin) this is 2·10⁹ comparisons; linear, 10⁵ lookups.
        let count = 20_000
        let plugins = (0..<count).map { (name: "plugins[\($0)] P\($0)", path: "/plugins/lib\($0)/libP.so") }
        var lines: [String] = ["55d0c0000000-55d0c0001000 r--p 00000000 fd:01 7 /usr/bin/apphost", "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]"]
        for segment in 0..<5 {
            for index in 0..<count {
                lines.append(mapping(UInt(0x7f00_0000_0000 + (segment * count + index) * 0x1000), inode: UInt64(1000 + index),
                                     plugins[index].path))
            }
        }
        var examined = 0
        let ranges = PluginMap.ranges(of: plugins, in: maps(lines)) { path in
            examined += 1
            guard let number = Int(path.dropFirst("/plugins/lib".count).prefix { $0 != "/" }) else { return nil }
            return UInt64(1000 + number)
        }
        #expect(ranges.count == 5 * count)
        #expect(examined == count)
        let first = ranges.first
        #expect(first?.plugin == 0 && first?.start == 0x7f00_0000_0000 && first?.end == 0x7f00_0000_1000)
        #expect(ranges.last?.plugin == count - 1)
    }

    @Test("a file several entries load is named by its first entry; a file replaced since (another inode) is not mapped")
    func sharedAndReplaced() {
        let plugins = [(name: "plugins[0] A", path: "/p/libA.so"), (name: "plugins[1] B", path: "/p/libB.so"),
                       (name: "plugins[2] A", path: "/p/libA.so")]
        let lines = [mapping(0x1000, inode: 11, "/p/libA.so"), mapping(0x2000, inode: 99, "/p/libB.so"),
                     mapping(0x3000, inode: 11, "/p/libA.so"), mapping(0x4000, inode: 11, "/p/libA.so (deleted)")]
        let ranges = PluginMap.ranges(of: plugins, in: maps(lines)) { ["/p/libA.so": 11, "/p/libB.so": 12][$0] }
        #expect(ranges.map(\.plugin) == [0, 0])
        #expect(ranges.map(\.start) == [0x1000, 0x3000])
    }

    @Test("lines read as the kernel writes them: paths with spaces, upper-case digits, no path, bad fields")
    func linesAsWritten() {
        let plugins = [(name: "plugins[0] A", path: "/p/my plugins/libA.so"), (name: "plugins[1] B", path: "/p/libB.so"),
                       (name: "plugins[2] C", path: "/p/libC.so")]
        let text = [
            "7F00000A0000-7F00000B0000 r-xp 00001000 fd:01 11    /p/my plugins/libA.so",  // upper case, spaces in the path
            "7f00000b0000-7f00000c0000 rw-p 00000000 00:00 0 ",  // anonymous: no path
            "7f00000c0000-7f00000d0000 r--p 00000000 fd:01 12",  // no path at all
            "zz-7f00000e0000 r--p 00000000 fd:01 12 /p/libB.so",  // not an address
            "7f00000e0000-7f00000f0000 r--p 00000000 fd:01 1x /p/libB.so",  // not an inode
            "7f00000f0000-7f0000100000 r--p 00000000 fd:01 12 /p/libB.so",
            "7f0000110000-7f0000120000 r--p 00000000 00:2a 18446744073709551615 /p/libC.so",  // the largest inode
            "7f0000120000-7f0000130000 r--p 00000000 00:2a 18446744073709551616 /p/libC.so",  // past UInt64
            "7f0000130000-7f00001\u{12}0000 r--p 00000000 00:2a 18446744073709551615 /p/libC.so",  // a control byte is no digit
            "",
            "7f0000100000-7f0000110000 r--p 00000000 fd:01 12 /p/libB.so",  // after a blank line, the text ends unterminated
        ]
        let ranges = PluginMap.ranges(of: plugins, in: maps(text)) {
            ["/p/my plugins/libA.so": 11, "/p/libB.so": 12, "/p/libC.so": UInt64.max][$0]
        }
        #expect(ranges.map(\.plugin) == [0, 1, 2, 1])
        #expect(ranges.map(\.start) == [0x7f00_000a_0000, 0x7f00_000f_0000, 0x7f00_0011_0000, 0x7f00_0010_0000])
        #expect(ranges.map(\.end) == [0x7f00_000b_0000, 0x7f00_0010_0000, 0x7f00_0012_0000, 0x7f00_0011_0000])
    }

    @Test("a plugin found before a reload is named as that load knew it, never past the reload's fewer names")
    func foundBeforeAReload() {
        let map = PluginMap()
        #expect(map.plugin(at: 0x3800) == nil)
        map.publish(names: ["plugins[0] A", "plugins[1] B", "plugins[2] C"],
                    ranges: [(0x1000, 0x2000, 0), (0x2000, 0x3000, 1), (0x3000, 0x4000, 2), (0x4000, 0x5000, 7)])
        #expect(map.count == 3)  // a range naming no plugin is never published
        let found = map.plugin(at: 0x3800)
        #expect(found?.index == 2)
        #expect(map.plugin(atAny: [0x100, 0x2000])?.index == 1)

        // A reload (fewer plugins, other places) published while a crash handler holds what it found.
        map.publish(names: ["plugins[0] D"], ranges: [(0x9000, 0xa000, 0)])
        #expect(map.plugin(at: 0x3800) == nil)
        #expect(map.plugin(at: 0x9800)?.index == 0)
        let line = PublishedText.Scratch(capacity: 64)
        if let found { map.appendName(found, to: line) }
        #expect(line.text == "plugins[2] C")
    }
}
