#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberABI
import SubscriberDelivery
import SubscriberKit

/// The descriptor's fields as Swift values, once checks 6–8 passed.
struct DescriptorFields: Sendable {
    var structSize: UInt32
    var abiMajor: UInt32
    var abiMinor: UInt32
    var id: String
    var name: String
    var version: String
    var vendor: String
    var swiftVersion: String
    var subscriberNames: [String]
}

/// Reads a plugin's descriptor through raw offsets, touching a field only when the plugin's
/// `struct_size` covers it (a smaller, older descriptor is never read past its end), and runs
/// checks 6 (size, ABI major), 7 (Swift version) and 8 (well-formed fields), in that order.
struct DescriptorReader {
    typealias Layout = MemoryLayout<adh_plugin_descriptor>

    /// More names than this is a corrupt count, not a plugin.
    static let maximumSubscriberCount: UInt32 = 4096

    /// The longest descriptor string read: its NUL must come within this many bytes, so a string
    /// without one is an error, not a scan through the plugin's memory.
    static let maximumStringLength = 64 * 1024

    /// The size of the ABI 1.0 descriptor: everything up to and including `create`. Fixed forever,
    /// whatever later minors append.
    static let size1_0: Int = Layout.offset(of: \.create)! + MemoryLayout<UnsafeRawPointer?>.size

    let raw: UnsafeRawPointer
    let path: String
    let hostSwiftVersion: String

    /// Whether `version` reads "major.minor", both whole numbers.
    static func isMajorMinor(_ version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil }
    }

    /// Check 7: a Swift plugin's compiler version (`plugin`; empty for C) is the host's major.minor.
    /// Fails closed: a version the compiler ladder could not name (a compiler newer than the ladder)
    /// never matches, not even the same text, so check 7 cannot silently turn off.
    static func checkSwiftVersion(_ plugin: String, host: String, path: String) throws(PluginLoadError) {
        if !plugin.isEmpty && (plugin != host || !isMajorMinor(host)) {
            throw .swiftVersionMismatch(path: path, host: host, plugin: plugin)
        }
    }

    func read() throws(PluginLoadError) -> DescriptorFields {
        // Check 6. The version fields come first so that a plugin of another major is told so even
        // when its descriptor has another size.
        let structSize = raw.loadUnaligned(as: UInt32.self)
        let versionEnd = Layout.offset(of: \.abi_minor)! + 4
        guard Int(structSize) >= versionEnd else {
            throw .descriptorTooSmall(path: path, minimum: Self.size1_0, found: structSize)
        }
        let abiMajor = field(\.abi_major, as: UInt32.self)
        let abiMinor = field(\.abi_minor, as: UInt32.self)
        guard abiMajor == UInt32(ADH_ABI_MAJOR) else {
            throw .abiMismatch(path: path, hostMajor: UInt32(ADH_ABI_MAJOR), pluginMajor: abiMajor, pluginMinor: abiMinor)
        }
        guard Int(structSize) >= Self.size1_0 else {
            throw .descriptorTooSmall(path: path, minimum: Self.size1_0, found: structSize)
        }

        // Check 7.
        let swiftVersion = try string(\.swift_version, "swift_version", allowEmpty: true)
        try Self.checkSwiftVersion(swiftVersion, host: hostSwiftVersion, path: path)

        // Check 8.
        let id = try string(\.id, "id", allowEmpty: false)
        let name = try string(\.name, "name", allowEmpty: false)
        let version = try string(\.version, "version", allowEmpty: true)
        let vendor = try string(\.vendor, "vendor", allowEmpty: true)
        if field(\.create, as: UnsafeRawPointer?.self) == nil {
            throw malformed("create", "a function", "NULL")
        }
        let names = try subscriberNames()
        return DescriptorFields(structSize: structSize, abiMajor: abiMajor, abiMinor: abiMinor, id: id, name: name,
                                version: version, vendor: vendor, swiftVersion: swiftVersion, subscriberNames: names)
    }

    private func subscriberNames() throws(PluginLoadError) -> [String] {
        let count = field(\.subscriber_count, as: UInt32.self)
        guard count <= Self.maximumSubscriberCount else {
            throw malformed("subscriber_count", "at most \(Self.maximumSubscriberCount)", "\(count)")
        }
        guard count > 0 else { return [] }
        guard let list = field(\.subscriber_names, as: UnsafePointer<UnsafePointer<CChar>?>?.self) else {
            throw malformed("subscriber_names", "an array of \(count) names", "NULL")
        }
        var names: [String] = []
        names.reserveCapacity(Int(count))
        // Where each name first appeared: a lookup per name keeps the check linear.
        var firstIndex: [String: Int] = [:]
        for index in 0..<Int(count) {
            let name = try decode(list[index], "subscriber_names[\(index)]", allowEmpty: false)
            if let first = firstIndex.updateValue(index, forKey: name) {
                throw malformed("subscriber_names[\(index)]", "a unique name",
                                "\"\(name)\" again (also subscriber_names[\(first)])")
            }
            names.append(name)
        }
        return names
    }

    /// A field the caller already knows `struct_size` covers.
    private func field<T>(_ key: PartialKeyPath<adh_plugin_descriptor>, as type: T.Type) -> T {
        raw.loadUnaligned(fromByteOffset: Layout.offset(of: key)!, as: T.self)
    }

    private func string(_ key: PartialKeyPath<adh_plugin_descriptor>, _ label: String,
                        allowEmpty: Bool) throws(PluginLoadError) -> String {
        try decode(field(key, as: UnsafePointer<CChar>?.self), label, allowEmpty: allowEmpty)
    }

    /// A NUL-terminated string that must be present, terminated within ``maximumStringLength`` bytes,
    /// valid UTF-8, free of control characters and (unless allowed) non-empty.
    private func decode(_ pointer: UnsafePointer<CChar>?, _ label: @autoclosure () -> String, allowEmpty: Bool) throws(PluginLoadError) -> String {
        guard let pointer else {
            throw malformed(label(), allowEmpty ? "a string" : "a non-empty string", "NULL")
        }
        // Bounded scan: at most the limit plus its NUL.
        let length = strnlen(pointer, Self.maximumStringLength + 1)
        guard length <= Self.maximumStringLength else {
            throw malformed(label(), "a NUL-terminated string of at most \(Self.maximumStringLength) bytes",
                            "no NUL within the first \(Self.maximumStringLength) bytes")
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        // The NUL lies within the limit: the standard library's C-string validation is the fast one.
        guard let text = String(validatingCString: pointer) else {
            let hex = bytes.prefix(16).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }
            throw malformed(label(), "valid UTF-8", "the bytes \(hex.joined(separator: " "))\(length > 16 ? " …" : "")")
        }
        // Printable ASCII (most names) has no control character: the scalars need looking at otherwise.
        if !bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
           let control = text.unicodeScalars.first(where: ControlCharacters.isControl),
           let escape = ControlCharacters.escape(control) {
            throw malformed(label(), "no control characters", "\(escape) in \"\(Self.excerpt(text))\"")
        }
        if text.isEmpty && !allowEmpty {
            throw malformed(label(), "a non-empty string", "an empty string")
        }
        return text
    }

    /// The most characters of a refused string an error shows, to show where a control character sits.
    static let excerptLength = 64

    /// Up to ``excerptLength`` characters of `text`, control characters escaped.
    private static func excerpt(_ text: String) -> String {
        let (shown, complete) = ControlCharacters.escapedPrefix(text.unicodeScalars, limit: excerptLength)
        return complete ? shown : shown + "…"
    }

    private func malformed(_ field: String, _ expected: String, _ found: String) -> PluginLoadError {
        .malformedDescriptor(path: path, field: field, expected: expected, found: found)
    }
}
