import Foundation
import SubscriberABI
import SubscriberValues

/// The shape of `didRegisterForRemoteNotifications`: a device token, hexadecimal in scripts.
package enum DeviceTokenArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> Data {
        let text = try reader.requiredString("deviceToken")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            guard let nibble = hexValue(character) else {
                throw reader.mismatch("deviceToken", "hexadecimal bytes", .string(text))
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw reader.mismatch("deviceToken", "an even number of hexadecimal digits", .string(text)) }
        return Data(bytes)
    }

    package static func write(_ value: Data, spec: Void, into object: inout JSONObject) {
        object["deviceToken"] = .string(hex(value))
    }

    package static func summary(_ value: Data) -> String? { hex(value) }

    package static func encode(_ value: Data, _ context: EncodingContext) -> ABIBytes { ABIBytes(value) }
    package static func cArguments(_ encoded: ABIBytes) -> adh_bytes { encoded.bytes }

    package static func decode(_ arguments: adh_bytes, problems: inout [String]) -> Data? {
        do throws(ABIStringProblem) {
            return Data(try arguments.checkedBuffer())
        } catch {
            problems.append("device token: \(error); read as empty")
            return Data()
        }
    }

    package static func canonical(spec: Void) -> [Data] {
        [Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xA1) })]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> ABIBytes {
        ABIBytes(draw.text("deviceToken", url: false))
    }

    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(data.count * 2)
        for byte in data {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
