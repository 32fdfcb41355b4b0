import SubscriberABI
import SubscriberValues

/// The shape of `supportedInterfaceOrientations`: a user-interface idiom, default phone.
package enum IdiomArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> UserInterfaceIdiom {
        // Over a line's bytes, a known name is matched there (no String made); anything else as below.
        if let bytes = reader.plainStringBytes("idiom"), let idiom = UserInterfaceIdiom(name: bytes) { return idiom }
        let name = try reader.string("idiom") ?? UserInterfaceIdiom.phone.name
        guard let idiom = UserInterfaceIdiom(name: name) else {
            let names = UserInterfaceIdiom.allCases.map(\.name).joined(separator: ", ")
            throw JSONShapeError(path: reader.path(of: "idiom"), expected: "one of \(names)",
                                 found: JSONValue.string(name).shapeDescription)
        }
        return idiom
    }

    package static func write(_ value: UserInterfaceIdiom, spec: Void, into object: inout JSONObject) {
        object["idiom"] = .string(value.name)
    }

    package static func summary(_ value: UserInterfaceIdiom) -> String? { value.name }

    package static func encode(_ value: UserInterfaceIdiom, _ context: EncodingContext) -> adh_idiom { value.rawValue }
    package static func cArguments(_ encoded: adh_idiom) -> adh_idiom { encoded }
    package static func decode(_ arguments: adh_idiom, problems: inout [String]) -> UserInterfaceIdiom? {
        UserInterfaceIdiom(rawValue: arguments) ?? .unspecified
    }
    package static func canonical(spec: Void) -> [UserInterfaceIdiom] { [.phone, .pad] }
    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> adh_idiom {
        draw.raw32("idiom", known: UserInterfaceIdiom.allCases.map(\.rawValue))
    }
}
