import Foundation
import Glibc
import SubscriberABI
import SubscriberKit

/// One payload in its C form: the struct, and the bytes its strings point into.
@MainActor
final class EncodedPayload<Payload> {
    /// The C struct; its pointers are valid as long as this object lives.
    let payload: Payload
    private let storage: [ABIBytes]

    fileprivate init(payload: Payload, storage: [ABIBytes]) {
        self.payload = payload
        self.storage = storage
    }

    /// Calls `body` with a pointer to the struct, borrowed for the call.
    func withPointer<R>(_ body: (UnsafePointer<Payload>) -> R) -> R {
        withUnsafePointer(to: payload, body)
    }
}

/// The last encoded payload of each kind with the Swift value it came from, so that an event
/// dispatched to many C subscribers is encoded once, not once per subscriber. An equal value
/// reuses the bytes *and the serial*, which lets a plugin decode once per serial
/// (adh/payloads.h); a new value gets a new serial. Serials are unique across kinds.
///
/// Every request is checked against the cached value, never assumed to match (a ``CSubscriber``
/// method may be called directly in the middle of a dispatch, with other arguments). The check is
/// cheap where it matters: the dispatcher hands every subscriber of an event the very same value,
/// whose bytes equal the cached copy's (same references, same scalars), so a byte comparison
/// settles it without `==`, retains or walks. Different bytes fall back to `==` (which, over an
/// `openURL` annotation, costs more than the call itself). Callgrind, openURL to 100 loaded
/// subscribers: about 70 instructions per subscriber more than trusting the event unchecked.
@MainActor
final class PayloadEncodeCache {
    /// The process's cache, shared by every ``CSubscriber``.
    static let shared = PayloadEncodeCache()

    /// How many payloads were encoded (not reused); for tests and diagnostics.
    private(set) var encodeCount = 0
    private var lastSerial: UInt64 = 0

    private struct LaunchKey: Equatable { var options: LaunchOptions; var invocation: LaunchInvocation }
    private struct OpenURLKey: Equatable { var url: URL; var options: OpenURLOptions }

    private var launch: Entry<LaunchKey, EncodedPayload<adh_launch>>?
    private var openURL: Entry<OpenURLKey, EncodedPayload<adh_open_url>>?
    private var userActivity: Entry<UserActivity, EncodedPayload<adh_user_activity>>?
    private var shortcutItem: Entry<ShortcutItem, EncodedPayload<adh_shortcut_item>>?
    private var notificationUserInfo: Entry<JSONObject, ABIBytes>?
    private var watchKitUserInfo: Entry<JSONObject, ABIBytes>?

    /// The launch payload for `options`, classified as `invocation`.
    func launch(options: LaunchOptions, invocation: LaunchInvocation) -> EncodedPayload<adh_launch> {
        if let launch, same(launch.key.options, options) && same(launch.key.invocation, invocation)
            || launch.key.options == options && launch.key.invocation == invocation { return launch.value }
        let made = Entry(key: LaunchKey(options: options, invocation: invocation), value: encoded { serial, storage in
            adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: serial,
                       options_json: storage.json(.object(options.json)),
                       invocation: ABI.invocationKind(invocation),
                       invocation_detail: storage.string(ABI.invocationDetail(invocation)))
        })
        launch = made
        return made.value
    }

    /// The open-URL payload for `url` and `options`.
    func openURL(url: URL, options: OpenURLOptions) -> EncodedPayload<adh_open_url> {
        if let openURL, same(openURL.key.url, url) && same(openURL.key.options, options)
            || openURL.key.url == url && openURL.key.options == options { return openURL.value }
        let made = Entry(key: OpenURLKey(url: url, options: options), value: encoded { serial, storage in
            adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial,
                         url: storage.string(url.absoluteString),
                         source_application: storage.string(options.sourceApplication),
                         annotation_json: storage.json(options.annotation),
                         open_in_place: ABI.tristate(options.openInPlace))
        })
        openURL = made
        return made.value
    }

    /// The user-activity payload for `activity`.
    func userActivity(_ activity: UserActivity) -> EncodedPayload<adh_user_activity> {
        if let hit = reuse(userActivity, activity) { return hit }
        let made = Entry(key: activity, value: encoded { serial, storage in
            adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                              activity_type: storage.string(activity.activityType),
                              webpage_url: storage.string(activity.webpageURL?.absoluteString),
                              user_info_json: storage.json(.object(activity.userInfo)))
        })
        userActivity = made
        return made.value
    }

    /// The shortcut-item payload for `item`.
    func shortcutItem(_ item: ShortcutItem) -> EncodedPayload<adh_shortcut_item> {
        if let hit = reuse(shortcutItem, item) { return hit }
        let made = Entry(key: item, value: encoded { serial, storage in
            adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                              type: storage.string(item.type), title: storage.string(item.title),
                              user_info_json: storage.json(.object(item.userInfo)))
        })
        shortcutItem = made
        return made.value
    }

    /// A remote notification's userInfo as JSON text.
    func notificationUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        if let hit = reuse(notificationUserInfo, userInfo) { return hit }
        let made = Entry(key: userInfo, value: json(userInfo))
        notificationUserInfo = made
        return made.value
    }

    /// A WatchKit request's userInfo as JSON text.
    func watchKitUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        if let hit = reuse(watchKitUserInfo, userInfo) { return hit }
        let made = Entry(key: userInfo, value: json(userInfo))
        watchKitUserInfo = made
        return made.value
    }

    /// One cached value and what it was made from.
    private final class Entry<Key: Equatable, Value> {
        let key: Key
        let value: Value

        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The cached value when its key equals `key`: the same bytes, or else `==`.
    private func reuse<Key, Value>(_ entry: Entry<Key, Value>?, _ key: Key) -> Value? {
        guard let entry, same(entry.key, key) || entry.key == key else { return nil }
        return entry.value
    }

    /// A payload struct made by `encode` with the next serial, and the bytes it points into.
    private func encoded<Payload>(_ encode: (UInt64, inout PayloadStorage) -> Payload) -> EncodedPayload<Payload> {
        encodeCount += 1
        lastSerial += 1
        var storage = PayloadStorage()
        let payload = encode(lastSerial, &storage)
        return EncodedPayload(payload: payload, storage: storage.bytes)
    }

    private func json(_ object: JSONObject) -> ABIBytes {
        encodeCount += 1
        return ABIBytes(JSONValue.object(object).serializedBytes())
    }
}

/// Collects the bytes a payload's strings point into while it is encoded.
private struct PayloadStorage {
    var bytes: [ABIBytes] = []

    /// `text` at a stable address; absent for nil.
    mutating func string(_ text: String?) -> adh_string {
        guard let text else { return .absent }
        let stored = ABIBytes(text)
        bytes.append(stored)
        return stored.string
    }

    /// `value` as JSON text; absent for nil.
    mutating func json(_ value: JSONValue?) -> adh_string {
        guard let value else { return .absent }
        let stored = ABIBytes(value.serializedBytes())
        bytes.append(stored)
        return stored.string
    }
}

/// Whether `a` and `b` are bit for bit the same value (the same value handed on): then they are
/// equal (same references, same scalars). Equal values may differ in bytes (other storage,
/// padding): `==` decides those.
@inline(__always)
private func same<T>(_ a: T, _ b: T) -> Bool {
    withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 } }
}
