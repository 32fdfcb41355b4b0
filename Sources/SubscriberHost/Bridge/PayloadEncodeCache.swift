import Foundation
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
/// Within one dispatched event (``beginEvent()`` … ``endEvent(_:)`` around the dispatcher's calls)
/// every subscriber receives the very same arguments, so after the first subscriber the cached
/// payload is reused without comparing values: comparing an `openURL` annotation per subscriber
/// cost more than the call itself. Outside an event (a direct call) values are compared.
@MainActor
final class PayloadEncodeCache {
    /// The process's cache, shared by every ``CSubscriber``.
    static let shared = PayloadEncodeCache()

    /// How many payloads were encoded (not reused); for tests and diagnostics.
    private(set) var encodeCount = 0
    private var lastSerial: UInt64 = 0
    /// The event being dispatched; 0 outside events.
    private var currentEvent: UInt64 = 0
    private var lastEvent: UInt64 = 0

    private struct LaunchKey: Equatable { var options: LaunchOptions; var invocation: LaunchInvocation }
    private struct OpenURLKey: Equatable { var url: URL; var options: OpenURLOptions }

    private var launch: Entry<LaunchKey, EncodedPayload<adh_launch>>?
    private var openURL: Entry<OpenURLKey, EncodedPayload<adh_open_url>>?
    private var userActivity: Entry<UserActivity, EncodedPayload<adh_user_activity>>?
    private var shortcutItem: Entry<ShortcutItem, EncodedPayload<adh_shortcut_item>>?
    private var notificationUserInfo: Entry<JSONObject, ABIBytes>?
    private var watchKitUserInfo: Entry<JSONObject, ABIBytes>?

    /// Starts the calls of one dispatched event: until ``endEvent(_:)`` every payload asked for has
    /// the same value for every subscriber. Returns what to pass to `endEvent`. Nests: an inner
    /// event ends, the outer one goes on.
    func beginEvent() -> UInt64 {
        let outer = currentEvent
        lastEvent += 1
        currentEvent = lastEvent
        return outer
    }

    /// Ends the event begun by the ``beginEvent()`` that returned `outer`.
    func endEvent(_ outer: UInt64) {
        currentEvent = outer
    }

    /// The launch payload for `options`, classified as `invocation`.
    func launch(options: LaunchOptions, invocation: LaunchInvocation) -> EncodedPayload<adh_launch> {
        if let hit = reuse(launch, { $0.options == options && $0.invocation == invocation }) { return hit }
        let made = entry(LaunchKey(options: options, invocation: invocation), encoded { serial, storage in
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
        if let hit = reuse(openURL, { $0.url == url && $0.options == options }) { return hit }
        let made = entry(OpenURLKey(url: url, options: options), encoded { serial, storage in
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
        if let hit = reuse(userActivity, { $0 == activity }) { return hit }
        let made = entry(activity, encoded { serial, storage in
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
        if let hit = reuse(shortcutItem, { $0 == item }) { return hit }
        let made = entry(item, encoded { serial, storage in
            adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                              type: storage.string(item.type), title: storage.string(item.title),
                              user_info_json: storage.json(.object(item.userInfo)))
        })
        shortcutItem = made
        return made.value
    }

    /// A remote notification's userInfo as JSON text.
    func notificationUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        if let hit = reuse(notificationUserInfo, { $0 == userInfo }) { return hit }
        let made = entry(userInfo, json(userInfo))
        notificationUserInfo = made
        return made.value
    }

    /// A WatchKit request's userInfo as JSON text.
    func watchKitUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        if let hit = reuse(watchKitUserInfo, { $0 == userInfo }) { return hit }
        let made = entry(userInfo, json(userInfo))
        watchKitUserInfo = made
        return made.value
    }

    /// One cached value: what it was made from, and in which event it was last handed out.
    private final class Entry<Key, Value> {
        let key: Key
        let value: Value
        var event: UInt64

        init(key: Key, value: Value, event: UInt64) {
            self.key = key
            self.value = value
            self.event = event
        }
    }

    /// The cached value when it is this event's, or when its key `matches`.
    private func reuse<Key, Value>(_ entry: Entry<Key, Value>?, _ matches: (Key) -> Bool) -> Value? {
        guard let entry else { return nil }
        if currentEvent != 0 && entry.event == currentEvent { return entry.value }
        guard matches(entry.key) else { return nil }
        entry.event = currentEvent
        return entry.value
    }

    /// A new entry for `value`, made from `key`, handed out in the current event.
    private func entry<Key, Value>(_ key: Key, _ value: Value) -> Entry<Key, Value> {
        Entry(key: key, value: value, event: currentEvent)
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
