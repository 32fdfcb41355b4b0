import Foundation
import Glibc
import SubscriberABI
import SubscriberValues

/// The C header's constants and the conversions between its values and SubscriberKit's. The plugin
/// exporter and the host adapter both use these, so the two sides of the boundary always agree.
package enum ABI {
    /// ADH_ABI_MAJOR as this SubscriberKit was compiled.
    package static let major = UInt32(ADH_ABI_MAJOR)
    /// ADH_ABI_MINOR as this SubscriberKit was compiled.
    package static let minor = UInt32(ADH_ABI_MINOR)
    /// ADH_ENTRY_SYMBOL: the one symbol a plugin exports ("adh_plugin_entry").
    package static let entrySymbol: String = ADH_ENTRY_SYMBOL

    /// ADH_RESPONDS: "I will call (or already called) the completion".
    package static let responds = adh_response(ADH_RESPONDS)
    /// ADH_DECLINES: "I do not respond to this call; I will not call the completion".
    package static let declines = adh_response(ADH_DECLINES)

    /// Copies the part of a struct written by the other side that its `struct_size` covers; every
    /// field it does not cover reads as zero (NULL, absent). The first field of `T` must be
    /// `uint32_t struct_size`. Only whole 8-byte words are copied, so a pointer is never half-read
    /// and no byte past the writer's struct is touched.
    package static func readCovered<T>(_ pointer: UnsafePointer<T>) -> T {
        let size = MemoryLayout<T>.size
        let declared = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        let covered = min(declared, size) & ~7
        // On the stack: this runs for every payload and vtable read.
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: MemoryLayout<T>.alignment) { scratch in
            let base = scratch.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            base.copyMemory(from: pointer, byteCount: covered)
            return base.load(as: T.self)
        }
    }

    /// The `serial` of the payload at `pointer`, read alone: what `readCovered(pointer).serial` is,
    /// without copying the struct (every payload's `serial` follows its `struct_size`, at offset 8:
    /// layout_checks.c). 0 when its `struct_size` does not cover it. Read on every call of an
    /// entry with a payload (``DecodeCache``).
    @inline(__always)
    package static func serial<T>(_ pointer: UnsafePointer<T>) -> UInt64 {
        let raw = UnsafeRawPointer(pointer)
        return raw.load(as: UInt32.self) >= 16 && MemoryLayout<T>.size >= 16 ? raw.load(fromByteOffset: 8, as: UInt64.self) : 0
    }

    /// Whether a struct whose `struct_size` is `structSize` covers the field at `offset` of `size`
    /// bytes (ADH_STRUCT_HAS).
    package static func covers(structSize: UInt32, offset: Int, size: Int) -> Bool {
        Int(structSize) >= offset + size
    }

    // MARK: Answers

    /// A `Bool?` answer as an adh_tristate.
    package static func tristate(_ value: Bool?) -> adh_tristate {
        switch value {
        case nil: adh_tristate(ADH_NO_OPINION)
        case false?: adh_tristate(ADH_FALSE)
        case true?: adh_tristate(ADH_TRUE)
        }
    }

    /// An adh_tristate as a `Bool?`; any value other than ADH_FALSE and ADH_TRUE is no opinion
    /// (check ``isValidTristate(_:)`` to report it).
    package static func bool(fromTristate raw: adh_tristate) -> Bool? {
        switch raw {
        case adh_tristate(ADH_FALSE): false
        case adh_tristate(ADH_TRUE): true
        default: nil
        }
    }

    /// Whether `raw` is one of ADH_NO_OPINION, ADH_FALSE, ADH_TRUE.
    package static func isValidTristate(_ raw: adh_tristate) -> Bool { (-1...1).contains(raw) }

    /// An orientation answer as the C entry returns it: the mask's bits, or ADH_NO_OPINION.
    package static func orientationAnswer(_ mask: InterfaceOrientationMask?) -> Int64 {
        guard let mask else { return Int64(ADH_NO_OPINION) }
        return Int64(mask.rawValue)
    }

    /// The mask a C entry returned: nil for a negative value (no opinion) or one wider than 32 bits.
    package static func orientationMask(fromAnswer raw: Int64) -> InterfaceOrientationMask? {
        guard raw >= 0, let bits = UInt32(exactly: raw) else { return nil }
        return InterfaceOrientationMask(rawValue: bits)
    }

    // MARK: Launch invocation

    /// The adh_invocation_kind of `invocation`.
    package static func invocationKind(_ invocation: LaunchInvocation) -> adh_invocation_kind {
        let kind: Int = switch invocation {
        case .unknown: ADH_INVOCATION_UNKNOWN
        case .appIconClick: ADH_INVOCATION_APP_ICON_CLICK
        case .deepLink: ADH_INVOCATION_DEEP_LINK
        case .urlScheme: ADH_INVOCATION_URL_SCHEME
        case .notification: ADH_INVOCATION_NOTIFICATION
        case .shortcut: ADH_INVOCATION_SHORTCUT
        case .background: ADH_INVOCATION_BACKGROUND
        }
        return adh_invocation_kind(kind)
    }

    /// The detail the header documents for each kind of `invocation`; nil when the kind has none.
    package static func invocationDetail(_ invocation: LaunchInvocation) -> String? {
        switch invocation {
        case .deepLink(let url), .urlScheme(let url): url.absoluteString
        case .notification(let userInfo): JSONValue.object(userInfo).serialized()
        case .shortcut(let type): type
        case .background(let reason): reason.rawValue
        case .appIconClick, .unknown: nil
        }
    }

    /// The invocation an adh_launch describes. A kind or detail that does not make sense (an unknown
    /// kind, a deep link without a URL) reads as `.unknown`.
    package static func invocation(kind: adh_invocation_kind, detail: adh_string) -> LaunchInvocation {
        switch Int(kind) {
        case ADH_INVOCATION_APP_ICON_CLICK:
            return .appIconClick
        case ADH_INVOCATION_DEEP_LINK:
            return absoluteURL(detail.string).map { .deepLink($0) } ?? .unknown
        case ADH_INVOCATION_URL_SCHEME:
            return absoluteURL(detail.string).map { .urlScheme($0) } ?? .unknown
        case ADH_INVOCATION_NOTIFICATION:
            guard case .object(let userInfo)? = try? parseJSON(detail) else { return .unknown }
            return .notification(userInfo)
        case ADH_INVOCATION_SHORTCUT:
            return detail.string.map { .shortcut($0) } ?? .unknown
        case ADH_INVOCATION_BACKGROUND:
            return detail.string.flatMap(BackgroundLaunchReason.init(rawValue:)).map { .background($0) } ?? .unknown
        default:
            return .unknown
        }
    }

    // MARK: JSON

    /// Parses JSON text handed over the boundary; nil when absent (`data == NULL`). Throws an
    /// ``ABIStringProblem`` for a string that cannot be read, a JSON error for text that is not JSON.
    package static func parseJSON(_ text: adh_string) throws -> JSONValue? {
        guard let bytes = try text.checkedBytes() else { return nil }
        return try JSONValue(parsing: UnsafeRawBufferPointer(bytes))
    }

    /// A JSON object handed over the boundary: `[:]` when absent; when it is not a JSON object,
    /// `[:]` and a one-line `problem` naming what was found.
    package static func jsonObject(_ text: adh_string, what: String) -> (object: JSONObject, problem: String?) {
        do {
            switch try parseJSON(text) {
            case nil: return ([:], nil)
            case .object(let object)?: return (object, nil)
            case let other?: return ([:], "\(what): expected a JSON object, found \(other.shapeDescription)")
            }
        } catch let problem as ABIStringProblem {
            return ([:], "\(what): \(problem)")
        } catch {
            return ([:], "\(what): expected a JSON object, found invalid JSON (\(error))")
        }
    }

    /// `text` as an absolute URL (one with a scheme), or nil.
    ///
    /// A text `URL(string:)` accepts that starts with a scheme (a letter, then letters, digits, `+`,
    /// `-`, `.`) and `:` has that scheme: told from its bytes, not by asking the URL (`URL.scheme`
    /// parses again, about 440 instructions a call); any other text is asked as before.
    package static func absoluteURL(_ text: String?) -> URL? {
        guard var text, let url = URL(string: text) else { return nil }
        if text.withUTF8({ startsWithScheme($0) }) { return url }
        return url.scheme != nil ? url : nil
    }

    /// Whether `bytes` start with `scheme ":"`: a letter, then letters, digits, `+`, `-`, `.`.
    package static func startsWithScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        for byte in bytes.dropFirst() {
            switch byte {
            case UInt8(ascii: ":"): return true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return false
    }
}
