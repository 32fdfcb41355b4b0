import SubscriberABI
import SubscriberValues

/// The shape of `didFailToRegisterForRemoteNotifications`: an error, `{"domain", "code", "message"}`
/// under the script key `error`.
package enum ErrorArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> LifecycleError {
        try reader.lifecycleError("error")
    }

    package static func write(_ value: LifecycleError, spec: Void, into object: inout JSONObject) {
        object["error"] = .object(value.json)
    }

    package static func summary(_ value: LifecycleError) -> String? { value.description }

    package static func encode(_ value: LifecycleError, _ context: EncodingContext) -> EncodedPayload<adh_error> {
        EncodedPayload { $0.error(value) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_error>) -> UnsafePointer<adh_error>? { encoded.pointer }

    package static func decode(_ arguments: UnsafePointer<adh_error>?, problems: inout [String]) -> LifecycleError? {
        arguments.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
    }

    package static func canonical(spec: Void) -> [LifecycleError] {
        [LifecycleError(domain: "NSCocoaErrorDomain", code: 3010, message: "remote notifications are not supported")]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_error> {
        EncodedPayload { $0.fuzzedError(&draw) }
    }
}

extension PayloadStorage {
    /// `error` as an `adh_error` whose strings live in this storage.
    package mutating func error(_ error: LifecycleError) -> adh_error {
        adh_error(struct_size: UInt32(MemoryLayout<adh_error>.size), domain: string(error.domain),
                  code: Int64(error.code), message: string(error.message))
    }

    /// A hostile `adh_error` drawn from `draw`.
    package mutating func fuzzedError(_ draw: inout some FuzzDraw) -> adh_error {
        let domain = draw.text("error.domain", url: false), message = draw.text("error.message", url: false)
        return adh_error(struct_size: UInt32(MemoryLayout<adh_error>.size), domain: raw(domain),
                         code: draw.integer("error.code"), message: raw(message))
    }
}

extension LifecycleError {
    /// As JSON: {"domain", "code", "message"}.
    package var json: JSONObject {
        ["domain": .string(domain), "code": .number(Double(code)), "message": .string(message)]
    }
}

extension JSONObjectReader {
    /// Member `key` as {"domain", "code", "message"} (code and message optional), which must be present.
    package mutating func lifecycleError(_ key: String) throws(JSONShapeError) -> LifecycleError {
        // Over a line's bytes, read from its own: built as a `JSONObject` by the parser first (its
        // code makes it more than plain strings) and read again, it cost about 6,500 instructions more.
        if let error = try flatObject(key, { (error) throws(JSONShapeError) in try LifecycleError(reading: &error) }) {
            return error
        }
        guard let value = value(key) else {
            throw JSONShapeError(path: path(of: key), expected: "an error {\"domain\", \"code\", \"message\"}", found: "nothing")
        }
        var error = try JSONObjectReader(value, path: path(of: key))
        return try LifecycleError(reading: &error)
    }
}

extension LifecycleError {
    /// Reads an error's keys through `reader`, and rejects any other.
    package init(reading reader: inout JSONObjectReader) throws(JSONShapeError) {
        let domain = try reader.requiredString("domain")
        let code = try reader.int("code") ?? 0
        let message = try reader.string("message") ?? ""
        try reader.rejectUnknownKeys()
        self.init(domain: domain, code: code, message: message)
    }
}
