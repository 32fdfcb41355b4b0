import SubscriberABI
import SubscriberValues

/// The shape of an event that carries a `userInfo` dictionary (`didReceiveRemoteNotification`,
/// `handleWatchKitExtensionRequest`): a JSON object, default {}; JSON text in C.
package enum UserInfoArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> JSONObject {
        try reader.object("userInfo") ?? [:]
    }

    package static func write(_ value: JSONObject, spec: Void, into object: inout JSONObject) {
        object["userInfo"] = .object(value)
    }

    package static func summary(_ value: JSONObject) -> String? { JSONValue.object(value).readableText }

    package static func encode(_ value: JSONObject, _ context: EncodingContext) -> ABIBytes {
        ABIBytes(JSONValue.object(value).serializedBytes())
    }

    package static func cArguments(_ encoded: ABIBytes) -> adh_string { encoded.string }

    package static func decode(_ arguments: adh_string, problems: inout [String]) -> JSONObject? {
        let (object, problem) = ABI.jsonObject(arguments, what: "userInfo")
        if let problem { problems.append(problem + "; read as {}") }
        return object
    }

    package static func canonical(spec: Void) -> [JSONObject] {
        [["aps": ["content-available": 1], "articles": [["id": 42]]], ["request": "latestHeadlines"]]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> ABIBytes {
        ABIBytes(draw.jsonObject("userInfo"))
    }
}
