import Glibc
import SubscriberABI
import SubscriberValues

/// Bytes at a stable address, owned by this object and freed with it: the storage behind every
/// `adh_string` one side hands to the other for longer than one Swift scope (payloads, the host's
/// app info and options, a plugin's configuration name). Always followed by a NUL, never relied on.
///
/// Immutable after `init`, hence safe to share across threads.
package final class ABIBytes: @unchecked Sendable {
    /// A static, NUL-terminated empty string: the non-NULL pointer of "" (absent is NULL).
    nonisolated(unsafe) static let emptyString = adh_string(data: UnsafePointer(strdup("")), length: 0)

    private let base: UnsafeMutablePointer<UInt8>
    /// The number of bytes, not counting the trailing NUL.
    package let count: Int

    /// A copy of `bytes`.
    package init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        base = .allocate(capacity: count + 1)
        let initialized = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: bytes).index
        precondition(initialized == count, "ABIBytes: the collection's count changed while copying")
        base[count] = 0
    }

    /// A copy of `bytes`: what the host hands a plugin (its app info and options as JSON). Not the
    /// generic copy, which a caller in another module reaches unspecialized: it looks up the
    /// collection's associated types by name, and the first look-up after a plugin is loaded scans
    /// every image's conformances (280,000 instructions at every start).
    package init(_ bytes: [UInt8]) {
        count = bytes.count
        base = .allocate(capacity: count + 1)
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { base.initialize(from: start, count: count) }
        }
        base[count] = 0
    }

    /// A copy of the UTF-8 of `string`.
    package convenience init(_ string: String) {
        self.init(string.utf8)
    }

    deinit { base.deallocate() }

    /// The bytes as an `adh_string`, valid as long as this object lives.
    package var string: adh_string {
        adh_string(data: cString, length: count)
    }

    /// The bytes as an `adh_bytes`, valid as long as this object lives.
    package var bytes: adh_bytes { adh_bytes(data: base, length: count) }

    /// A NUL-terminated C string, valid as long as this object lives.
    package var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
    }
}
