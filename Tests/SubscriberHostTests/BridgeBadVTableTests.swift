import Testing
import SubscriberKit
@testable import SubscriberHost

/// How `BadExtensionVTable`'s `get_extension` hands out its scene vtable (its options' "vtable"), and
/// what the refusal must say it expected and found.
struct BadVTableCase: Sendable, CustomTestStringConvertible {
    let variant: String
    let expected: String
    /// The start of what was found (the address follows, or comes first).
    let found: String
    var testDescription: String { variant }

    static let all: [BadVTableCase] = [
        BadVTableCase(variant: "misaligned", expected: "a struct at an address aligned to 8 bytes", found: "0x"),
        BadVTableCase(variant: "unreadable", expected: "a struct whose struct_size can be read", found: "unreadable memory at 0x"),
        BadVTableCase(variant: "truncated", expected: "the 120 bytes its struct_size (120) covers readable",
                      found: "unreadable memory within 0x"),
    ]
}

/// A subscriber that hands out a vtable the host cannot read is refused, naming the plugin, the
/// subscriber, the extension, what was expected and what was found; it never traps the host.
@MainActor
@Suite("Bridge: a vtable that cannot be read refuses its subscriber, never traps")
struct BridgeBadVTableTests {
    static let plugin = "BadExtensionVTable"

    @Test("a required plugin: one error, check 9, naming plugin, subscriber, extension id, expected and found",
          arguments: BadVTableCase.all)
    func required(_ bad: BadVTableCase) throws {
        let result = Result { try loadHost(manifest: withApp(#"""
            "plugins": [{"library": "QuietHours"}, {"library": "\#(Self.plugin)", "options": {"vtable": "\#(bad.variant)"}}]
            """#)) }
        guard case .failure(let thrown) = result else {
            Issue.record("a subscriber with a \(bad.variant) vtable was accepted")
            return
        }
        guard let error = thrown as? HostError, case .load(let failure) = error.reason, case .unreadableStruct(let path, let name, let source, let expected, let found) = failure.error else {
            Issue.record("expected an unreadable-struct load error, found \(thrown)")
            return
        }
        #expect(failure.pluginIndex == 1 && failure.error.check == 9)
        #expect(path == BuiltPlugins.path(Self.plugin) && name == Self.plugin && source == #"get_extension("adh.scene/1")"#)
        #expect(expected == bad.expected)
        #expect(found.hasPrefix(bad.found), "\(found)")
        #expect("\(error)".contains(#"plugins[1]: plugin "\#(path)": subscriber \#(Self.plugin): get_extension("adh.scene/1"): expected \#(bad.expected), found \#(bad.found)"#),
                "\(error)")
    }

    @Test("one vtable handed out for every id: refused before any is called, naming the two ids that share it")
    func oneVTableForEveryID() throws {
        let result = Result { try loadHost(manifest: withApp(#"""
            "plugins": [{"library": "\#(Self.plugin)", "options": {"vtable": "everyID"}}]
            """#)) }
        guard case .failure(let thrown) = result, let error = thrown as? HostError, case .load(let failure) = error.reason,
              case .unreadableStruct(_, let name, let source, let expected, let found) = failure.error else {
            Issue.record("expected an unreadable-struct load error, found \(result)")
            return
        }
        #expect(failure.error.check == 9 && name == Self.plugin && source == "get_extension")
        #expect(expected == "a vtable of its own for each id it implements (NULL for any other)")
        #expect(found == #"the same pointer for "adh.notification-center/1" and "adh.scene/1""#, "\(found)")

        // The subscriber struct itself handed out as a vtable (`return self;`): the same mistake.
        let itself = Result { try loadHost(manifest: withApp(#"""
            "plugins": [{"library": "\#(Self.plugin)", "options": {"vtable": "itself"}}]
            """#)) }
        guard case .failure(let other) = itself, let otherError = other as? HostError, case .load(let otherFailure) = otherError.reason,
              case .unreadableStruct(_, _, _, _, let otherFound) = otherFailure.error else {
            Issue.record("expected an unreadable-struct load error, found \(itself)")
            return
        }
        #expect(otherFound == #"the same pointer for "adh.scene/1" and the subscriber itself (create's)"#, "\(otherFound)")
    }

    @Test("misaligned: found says the address and by how much")
    func misalignedBy() throws {
        let result = Result { try loadHost(manifest: withApp(#""plugins": [{"library": "\#(Self.plugin)"}]"#)) }
        guard case .failure(let thrown) = result, let error = thrown as? HostError, case .load(let failure) = error.reason,
              case .unreadableStruct(_, _, _, _, let found) = failure.error else {
            Issue.record("expected an unreadable-struct load error, found \(result)")
            return
        }
        #expect(found.hasSuffix(", misaligned by 1"), "\(found)")
    }

    @Test("an optional plugin is skipped with the same line and the others run")
    func optionalSkipped() throws {
        let (host, logs) = try loadHost(manifest: withApp(#"""
            "plugins": [{"library": "\#(Self.plugin)", "optional": true}, {"library": "QuietHours"}]
            """#))
        defer { _ = host.shutDown() }
        #expect(host.subscribers.map(\.name) == ["QuietHours"])
        #expect(host.plugins.skipped.count == 1)
        #expect(host.plugins.skipped.first?.description.hasPrefix(
            #"plugins[0] (optional, skipped): plugin "\#(BuiltPlugins.path(Self.plugin))": subscriber \#(Self.plugin): get_extension("adh.scene/1"): expected a struct at an address aligned to 8 bytes, found 0x"#) == true)
        // Said where the subscriber's logs go too.
        #expect(logs.all.contains { $0.subscriber == Self.plugin && $0.level == .error
            && $0.message.hasPrefix(#"get_extension("adh.scene/1"): expected a struct at an address aligned to 8 bytes"#) })
    }

    @Test("the probe tells readable memory from unreadable, and misaligned from aligned")
    func probe() {
        let words: [UInt64] = [24, 0, 0, 0]  // struct_size 24, then fields
        words.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            #expect(VTableCheck.problem(at: base, size: 32) == nil)
            #expect(VTableCheck.problem(at: base + 4, size: 32)?.found.hasSuffix("misaligned by 4") == true)
            #expect(VTableCheck.isReadable(base, count: 32))
        }
        #expect(!VTableCheck.isReadable(UnsafeRawPointer(bitPattern: 8)!, count: 8))
    }
}
