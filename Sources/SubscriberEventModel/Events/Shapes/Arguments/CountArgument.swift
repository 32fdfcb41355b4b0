import SubscriberValues
/// The shape of an event that carries a count (`didDiscardSceneSessions`): 0 or more, default 1.
package enum CountArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> Int {
        let count = try reader.int("count") ?? 1
        guard count >= 0 else {
            throw JSONShapeError(path: reader.path(of: "count"), expected: "a count of 0 or more",
                                 found: JSONValue.number(Double(count)).shapeDescription)
        }
        return count
    }

    package static func write(_ value: Int, spec: Void, into object: inout JSONObject) {
        object["count"] = .number(Double(value))
    }

    package static func summary(_ value: Int) -> String? { "\(value) session\(value == 1 ? "" : "s")" }

    package static func encode(_ value: Int, _ context: EncodingContext) -> Int64 { Int64(value) }
    package static func cArguments(_ encoded: Int64) -> Int64 { encoded }
    // Counts beyond Int's range cannot happen on 64-bit Linux; clamp rather than trap anyway.
    package static func decode(_ arguments: Int64, problems: inout [String]) -> Int? { Int(clamping: arguments) }
    package static func canonical(spec: Void) -> [Int] { [2] }
    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> Int64 {
        draw.integer("count")
    }
}
