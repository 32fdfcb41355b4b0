import SubscriberValues
/// The shape of an event that carries nothing but the application (`didBecomeActive`, `performFetch`).
package enum NoArguments: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> NoValue { NoValue() }
    package static func write(_ value: NoValue, spec: Void, into object: inout JSONObject) {}
    package static func encode(_ value: NoValue, _ context: EncodingContext) {}
    package static func cArguments(_ encoded: Void) {}
    package static func decode(_ arguments: Void, problems: inout [String]) -> NoValue? { NoValue() }
    package static func canonical(spec: Void) -> [NoValue] { [NoValue()] }
    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) {}
}
