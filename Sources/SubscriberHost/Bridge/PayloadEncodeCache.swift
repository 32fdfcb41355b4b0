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
@MainActor
final class PayloadEncodeCache {
    /// The process's cache, shared by every ``CSubscriber``.
    static let shared = PayloadEncodeCache()

    /// How many payloads were encoded (not reused); for tests and diagnostics.
    private(set) var encodeCount = 0
    private var lastSerial: UInt64 = 0

    private struct LaunchKey: Equatable { var options: LaunchOptions; var invocation: LaunchInvocation }
    private struct OpenURLKey: Equatable { var url: URL; var options: OpenURLOptions }

    private var launch: (key: LaunchKey, encoded: EncodedPayload<adh_launch>)?
    private var openURL: (key: OpenURLKey, encoded: EncodedPayload<adh_open_url>)?
    private var userActivity: (key: UserActivity, encoded: EncodedPayload<adh_user_activity>)?
    private var shortcutItem: (key: ShortcutItem, encoded: EncodedPayload<adh_shortcut_item>)?
    private var notificationUserInfo: (key: JSONObject, bytes: ABIBytes)?
    private var watchKitUserInfo: (key: JSONObject, bytes: ABIBytes)?

    /// The launch payload for `options`, classified as `invocation`.
    func launch(options: LaunchOptions, invocation: LaunchInvocation) -> EncodedPayload<adh_launch> {
        cached(&launch, key: LaunchKey(options: options, invocation: invocation)) { serial, storage in
            adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: serial,
                       options_json: storage.json(.object(options.json)),
                       invocation: ABI.invocationKind(invocation),
                       invocation_detail: storage.string(ABI.invocationDetail(invocation)))
        }
    }

    /// The open-URL payload for `url` and `options`.
    func openURL(url: URL, options: OpenURLOptions) -> EncodedPayload<adh_open_url> {
        cached(&openURL, key: OpenURLKey(url: url, options: options)) { serial, storage in
            adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial,
                         url: storage.string(url.absoluteString),
                         source_application: storage.string(options.sourceApplication),
                         annotation_json: storage.json(options.annotation),
                         open_in_place: ABI.tristate(options.openInPlace))
        }
    }

    /// The user-activity payload for `activity`.
    func userActivity(_ activity: UserActivity) -> EncodedPayload<adh_user_activity> {
        cached(&userActivity, key: activity) { serial, storage in
            adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                              activity_type: storage.string(activity.activityType),
                              webpage_url: storage.string(activity.webpageURL?.absoluteString),
                              user_info_json: storage.json(.object(activity.userInfo)))
        }
    }

    /// The shortcut-item payload for `item`.
    func shortcutItem(_ item: ShortcutItem) -> EncodedPayload<adh_shortcut_item> {
        cached(&shortcutItem, key: item) { serial, storage in
            adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                              type: storage.string(item.type), title: storage.string(item.title),
                              user_info_json: storage.json(.object(item.userInfo)))
        }
    }

    /// A remote notification's userInfo as JSON text.
    func notificationUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        cachedJSON(&notificationUserInfo, userInfo)
    }

    /// A WatchKit request's userInfo as JSON text.
    func watchKitUserInfo(_ userInfo: JSONObject) -> ABIBytes {
        cachedJSON(&watchKitUserInfo, userInfo)
    }

    private func cached<Key: Equatable, Payload>(
        _ slot: inout (key: Key, encoded: EncodedPayload<Payload>)?, key: Key,
        _ encode: (UInt64, inout PayloadStorage) -> Payload
    ) -> EncodedPayload<Payload> {
        if let slot, slot.key == key { return slot.encoded }
        encodeCount += 1
        lastSerial += 1
        var storage = PayloadStorage()
        let payload = encode(lastSerial, &storage)
        let encoded = EncodedPayload(payload: payload, storage: storage.bytes)
        slot = (key, encoded)
        return encoded
    }

    private func cachedJSON(_ slot: inout (key: JSONObject, bytes: ABIBytes)?, _ object: JSONObject) -> ABIBytes {
        if let slot, slot.key == object { return slot.bytes }
        encodeCount += 1
        let bytes = ABIBytes(JSONValue.object(object).serializedBytes())
        slot = (object, bytes)
        return bytes
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
