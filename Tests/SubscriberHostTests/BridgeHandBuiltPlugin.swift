import Foundation
import Glibc
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

/// A plugin written against the C header alone, by hand in Swift (SwiftPM test targets cannot hold
/// C): vtables with chosen NULL entries, a short `struct_size`, forged completion tokens and
/// out-of-range answers. Its entries record what they saw in this main-actor state.
@MainActor
enum HandBuilt {
    /// The serial of every open_url payload, in order.
    static var serials: [UInt64] = []
    /// Entries called that must never be called (beyond `struct_size`).
    static var trapped: [String] = []
    /// How many instances were destroyed.
    static var destroyed = 0
    /// The last fetch completion a "sparse" subscriber received, to call again later.
    static var keptFetch: adh_fetch_completion?
    /// The last fetch completion a "silent" subscriber received (and never called).
    static var silentFetch: adh_fetch_completion?
    /// The last fetch completion a "threadforger" subscriber received, to forge with again later.
    static var threadforgerFetch: adh_fetch_completion?
    /// The host interface the last "nodestroy" subscriber was created with, not keeping it alive.
    static weak var nodestroyHost: HostInterface?
    /// Its `adh_host`, as an address.
    static var nodestroyHostAddress: UInt = 0

    /// The descriptor: subscribers "sparse", "short", "forger", "logger", "weird", "nodestroy", "silent",
    /// "threadforger".
    static let descriptor = HandBuiltPlugin.descriptor(
        id: "com.example.hand-built", name: "Hand built",
        subscribers: ["sparse", "short", "forger", "logger", "weird", "nodestroy", "silent", "threadforger"],
        create: { name, host in HandBuiltPlugin.create(name, host) { HandBuilt.create($0, host: $1) } })

    /// "weird"'s notification-center vtable: `will_present` completes with ADH_PRESENTATION_BADGE and
    /// an unknown bit (1 << 20).
    nonisolated(unsafe) static let weirdNotificationCenter: UnsafeMutablePointer<adh_notification_center> = {
        var center = adh_notification_center()
        center.struct_size = UInt32(MemoryLayout<adh_notification_center>.size)
        center.will_present = { _, _, completion in
            completion.call!(completion.context, adh_presentation_options(ADH_PRESENTATION_BADGE) | (1 << 20))
            return adh_response(ADH_RESPONDS)
        }
        let pointer = UnsafeMutablePointer<adh_notification_center>.allocate(capacity: 1)
        pointer.initialize(to: center)
        return pointer
    }()

    /// The vtable for `name` as an address (addresses cross the main-actor hop; pointers may not).
    private static func create(_ name: String, host: UInt) -> UInt? {
        var v = HandBuiltPlugin.vtable(host: host)
        v.destroy = { me in
            MainActor.assumeIsolated { HandBuilt.destroyed += 1 }
            UnsafeMutablePointer(mutating: me!).deallocate()
        }
        switch name {
        case "sparse":
            v.did_become_active = { _ in }
            v.open_url = { _, request in
                let serial = request!.pointee.serial
                MainActor.assumeIsolated { HandBuilt.serials.append(serial) }
                return adh_tristate(ADH_TRUE)
            }
            v.perform_fetch = { _, completion in
                // Called twice: the host must forward both calls to the dispatcher's handler.
                completion.call!(completion.context, adh_fetch_result(ADH_FETCH_NEW_DATA))
                completion.call!(completion.context, adh_fetch_result(ADH_FETCH_FAILED))
                let kept = UInt(bitPattern: completion.context)
                MainActor.assumeIsolated {
                    HandBuilt.keptFetch = adh_fetch_completion(call: completion.call,
                                                               context: UnsafeMutableRawPointer(bitPattern: kept))
                }
                return adh_response(ADH_RESPONDS)
            }
        case "short":
            // struct_size covers the entries up to did_become_active; the later ones hold traps.
            v.struct_size = UInt32(MemoryLayout<adh_subscriber>.offset(of: \.did_become_active)! + 8)
            v.did_become_active = { _ in }
            v.open_url = { _, _ in
                MainActor.assumeIsolated { HandBuilt.trapped.append("open_url") }
                return adh_tristate(ADH_TRUE)
            }
            v.perform_fetch = { _, _ in
                MainActor.assumeIsolated { HandBuilt.trapped.append("perform_fetch") }
                return adh_response(ADH_RESPONDS)
            }
        case "forger":
            v.perform_fetch = { _, completion in
                completion.call!(UnsafeMutableRawPointer(bitPattern: 0x7fff_dead_0000), adh_fetch_result(ADH_FETCH_NEW_DATA))
                completion.call!(nil, adh_fetch_result(ADH_FETCH_NEW_DATA))
                return adh_response(ADH_DECLINES)
            }
        case "logger":
            v.did_become_active = { me in
                let host = HandBuiltPlugin.host(of: me)
                let appInfo = host.pointee.app_info_json!(host).string ?? "absent"
                let options = host.pointee.options_json!(host).string ?? "absent"
                withABIString("app \(appInfo) options \(options)") { host.pointee.log!(host, adh_log_level(ADH_LOG_NOTICE), $0) }
                withABIString("level out of range") { host.pointee.log!(host, 99, $0) }
                withABIString("opened") { name in
                    withABIString("{\"screen\":\"home\"}") { host.pointee.log_event!(host, name, $0) }
                }
                withABIString("bad attributes") { name in
                    withABIString("[1,") { host.pointee.log_event!(host, name, $0) }
                }
                withABIString("failed") { host.pointee.log_error!(host, $0, .absent) }
            }
        case "weird":
            v.open_url = { _, _ in 5 }
            v.supported_interface_orientations = { _, _ in 1 << 40 }
            v.perform_fetch = { _, completion in
                completion.call!(completion.context, 9)
                return 7
            }
            // Integer completions outside the header's values, made inside the entry on its own
            // thread (the typed path): a Bool of 2, presentation options with an unknown bit.
            v.perform_action_for_shortcut_item = { _, _, completion in
                completion.call!(completion.context, 2)
                return adh_response(ADH_RESPONDS)
            }
            v.get_extension = { _, id in
                guard let id, String(cString: id) == ADH_EXT_NOTIFICATION_CENTER else { return nil }
                return UnsafeRawPointer(HandBuilt.weirdNotificationCenter)
            }
        case "nodestroy":
            v.destroy = nil
            let pointer = UnsafePointer<adh_host>(bitPattern: host)!
            nodestroyHostAddress = host
            nodestroyHost = Unmanaged<HostInterface>.fromOpaque(pointer.pointee.host_data!).takeUnretainedValue()
        case "silent":
            // Responds to performFetch and never calls its completion; keeps it for a late call.
            v.perform_fetch = { _, completion in
                let context = UInt(bitPattern: completion.context)
                MainActor.assumeIsolated {
                    HandBuilt.silentFetch = adh_fetch_completion(call: completion.call,
                                                                 context: UnsafeMutableRawPointer(bitPattern: context))
                }
                return adh_response(ADH_RESPONDS)
            }
        case "threadforger":
            // Completes from a thread of its own, as plugins normally do: first with two tokens it was
            // never given (its own with another tag, and its neighbour's), then with its own.
            v.perform_fetch = { _, completion in
                nonisolated(unsafe) let call = completion.call!
                let token = UInt(bitPattern: completion.context)
                MainActor.assumeIsolated {
                    HandBuilt.threadforgerFetch = adh_fetch_completion(call: call,
                                                                       context: UnsafeMutableRawPointer(bitPattern: token))
                }
                Thread.detachNewThread {
                    call(UnsafeMutableRawPointer(bitPattern: token ^ (1 << 32)), adh_fetch_result(ADH_FETCH_NO_DATA))
                    call(UnsafeMutableRawPointer(bitPattern: token &- 1), adh_fetch_result(ADH_FETCH_NO_DATA))
                    call(UnsafeMutableRawPointer(bitPattern: token), adh_fetch_result(ADH_FETCH_NEW_DATA))
                }
                return adh_response(ADH_RESPONDS)
            }
        default:
            return nil
        }
        return HandBuiltPlugin.publish(v)
    }
}

/// What every plugin built by hand in Swift shares (`HandBuilt`, `Hostile`): its descriptor, the hop
/// from `create` to the main actor, and vtables that keep their host. A descriptor and its strings are
/// never freed, like a loaded plugin's (the host never unloads one); a vtable lives until its `destroy`.
enum HandBuiltPlugin {
    /// The C form of a descriptor's `create`.
    typealias Create = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<adh_host>?) -> UnsafePointer<adh_subscriber>?

    /// A valid ABI 1.0 descriptor of a C plugin (version "1.0", no vendor, no Swift version) declaring
    /// `subscribers`, made by `create`.
    static func descriptor(id: String, name: String, subscribers: [String],
                           create: Create) -> UnsafePointer<adh_plugin_descriptor> {
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: subscribers.count)
        for (index, subscriber) in subscribers.enumerated() { list[index] = UnsafePointer(strdup(subscriber)) }
        let descriptor = UnsafeMutablePointer<adh_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(to: adh_plugin_descriptor(
            struct_size: UInt32(MemoryLayout<adh_plugin_descriptor>.size), abi_major: 1, abi_minor: 0,
            id: UnsafePointer(strdup(id)), name: UnsafePointer(strdup(name)),
            version: UnsafePointer(strdup("1.0")), vendor: UnsafePointer(strdup("")),
            swift_version: UnsafePointer(strdup("")), subscriber_count: UInt32(subscribers.count),
            subscriber_names: UnsafePointer(list), create: create))
        return UnsafePointer(descriptor)
    }

    /// Answers a `create` call (on the host's main thread) with `make`, run on the main actor with the
    /// name and the host's address; `make` returns the vtable's address, or nil for an unknown name.
    /// Addresses cross the main-actor hop; pointers may not.
    static func create(_ name: UnsafePointer<CChar>?, _ host: UnsafePointer<adh_host>?,
                       _ make: @MainActor (String, UInt) -> UInt?) -> UnsafePointer<adh_subscriber>? {
        let name = name.map { String(cString: $0) } ?? ""
        let host = UInt(bitPattern: host)
        return MainActor.assumeIsolated { make(name, host) }.flatMap { UnsafePointer<adh_subscriber>(bitPattern: $0) }
    }

    /// A vtable of the current size with no event entries, the host's address in `instance` (for
    /// `host(of:)`) and a `destroy` that frees what `publish` allocated.
    static func vtable(host: UInt) -> adh_subscriber {
        var v = adh_subscriber()
        v.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
        v.instance = UnsafeMutableRawPointer(bitPattern: host)
        v.destroy = { me in UnsafeMutablePointer(mutating: me!).deallocate() }
        return v
    }

    /// The host a vtable from `vtable(host:)` was made for.
    static func host(of me: UnsafePointer<adh_subscriber>?) -> UnsafePointer<adh_host> {
        UnsafePointer<adh_host>(OpaquePointer(me!.pointee.instance!))
    }

    /// `v` copied into memory of its own, as an address: what the host holds until `destroy`.
    static func publish(_ v: adh_subscriber) -> UInt {
        let vtable = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
        vtable.initialize(to: v)
        return UInt(bitPattern: vtable)
    }
}
