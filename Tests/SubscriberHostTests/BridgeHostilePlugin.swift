import Glibc
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

/// A hand-built plugin (C vtables written in Swift) that breaks the contract in ways the host must
/// detect without trapping: string lengths of `(size_t)-1`, a neighbour's completion token, a
/// completion called in a loop, a `struct_size` of 0, a log call after `destroy`.
@MainActor
enum Hostile {
    /// How many times "repeater" calls its fetch completion.
    static let repeats = 20_000
    /// The host the "afterlife" subscriber was given, as an address, to call after destroy.
    static var afterlifeHost: UInt = 0

    /// `(size_t)-1` with data: the length that trapped the host.
    nonisolated static var endless: adh_string { adh_string(data: UnsafePointer(strdup("x")), length: Int(bitPattern: UInt.max)) }
    /// A length with NULL data.
    nonisolated static var nullWithLength: adh_string { adh_string(data: nil, length: 5) }

    /// The descriptor: subscribers "lengths", "honest", "neighbour", "repeater", "zerosize", "afterlife".
    static let descriptor = HandBuiltPlugin.descriptor(
        id: "com.example.hostile", name: "Hostile",
        subscribers: ["lengths", "honest", "neighbour", "repeater", "zerosize", "afterlife"],
        create: { name, host in HandBuiltPlugin.create(name, host) { Hostile.create($0, host: $1) } })

    /// The vtable for `name` as an address.
    private static func create(_ name: String, host: UInt) -> UInt? {
        var v = HandBuiltPlugin.vtable(host: host)
        switch name {
        case "lengths":
            v.did_become_active = { me in
                let host = HandBuiltPlugin.host(of: me)
                host.pointee.log!(host, adh_log_level(ADH_LOG_INFO), Hostile.endless)
                host.pointee.log!(host, adh_log_level(ADH_LOG_INFO), Hostile.nullWithLength)
                host.pointee.log_event!(host, Hostile.endless, .absent)
                withABIString("opened") { host.pointee.log_event!(host, $0, Hostile.endless) }
                host.pointee.log_error!(host, Hostile.endless, Hostile.endless)
                withABIString("still here") { host.pointee.log!(host, adh_log_level(ADH_LOG_INFO), $0) }
            }
            v.configuration_for_connecting = { _, _ in Hostile.endless }
            v.continue_user_activity = { _, _, restoration in
                restoration.call!(restoration.context, Hostile.endless)
                return adh_tristate(ADH_TRUE)
            }
            v.handle_watchkit_extension_request = { _, _, reply in
                reply.call!(reply.context, Hostile.endless)
                return adh_response(ADH_RESPONDS)
            }
        case "honest":
            v.perform_fetch = { _, completion in
                completion.call!(completion.context, adh_fetch_result(ADH_FETCH_NO_DATA))
                return adh_response(ADH_RESPONDS)
            }
        case "neighbour":
            // Calls with its own token − 1 (with sequential tokens: the previous subscriber's), then its own.
            v.perform_fetch = { _, completion in
                let forged = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: completion.context) &- 1)
                completion.call!(forged, adh_fetch_result(ADH_FETCH_FAILED))
                completion.call!(completion.context, adh_fetch_result(ADH_FETCH_NEW_DATA))
                return adh_response(ADH_RESPONDS)
            }
        case "repeater":
            v.perform_fetch = { _, completion in
                for _ in 0..<Hostile.repeats { completion.call!(completion.context, adh_fetch_result(ADH_FETCH_NO_DATA)) }
                return adh_response(ADH_RESPONDS)
            }
        case "zerosize":
            // Has a destroy, but says its struct is 0 bytes long.
            v.struct_size = 0
        case "afterlife":
            afterlifeHost = host
        default:
            return nil
        }
        return HandBuiltPlugin.publish(v)
    }
}
