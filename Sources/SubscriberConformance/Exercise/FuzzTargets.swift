import SubscriberABI
import SubscriberKit

/// The raw vtable entries the fuzz check feeds: every event with arguments. The values are drawn by
/// the event's argument schema (``FuzzedArguments``), then passed as the entry's C signature takes
/// them — directly, not through the host's bridge, which only ever sends well-formed Swift values:
/// invalid UTF-8 must reach the plugin as it is.
enum FuzzTargets {
    /// Calls one entry of `subscriber` with the values `values` draws; `serial` is a fresh payload
    /// serial (plugins may cache a decode per serial). The values are drawn even when the entry is
    /// NULL (``DryRun``). Nil when the event takes no input to fuzz.
    typealias Call = (RawSubscriber, inout FuzzValues, UInt64) -> Void

    static func call(for event: LifecycleEvent) -> Call? {
        let schema = event.row.arguments
        guard schema != .none else { return nil }
        return { subscriber, values, serial in
            let arguments = FuzzedArguments(schema, drawingFrom: &values)
            if let entry = subscriber.entry(event) { bind(entry, arguments)?(subscriber.pointer, serial) }
        }
    }

    /// The call of `entry` with `arguments`, given the subscriber and a payload serial; nil when the
    /// arguments are not of the shape its signature takes (a row whose schema and C signature disagree:
    /// a test binds every row).
    static func bind(_ entry: CEntry, _ arguments: FuzzedArguments) -> ((UnsafePointer<adh_subscriber>, UInt64) -> Void)? {
        switch (entry, arguments) {
        case (.notifyBytes(let entry), .deviceToken(let token)):
            return { me, _ in token.withUnsafeBufferPointer { entry(me, adh_bytes(data: $0.baseAddress, length: $0.count)) } }
        case (.notifyError(let entry), .error(let error)):
            return { me, _ in withError(error) { entry(me, $0) } }
        case (.notifyActivity(let entry), .userActivity(let activity)):
            return { me, serial in withActivity(activity, serial) { entry(me, $0) } }
        case (.restoration(let entry), .userActivity(let activity)):
            return { me, serial in withActivity(activity, serial) { _ = entry(me, $0, NoOpCompletions.json) } }
        case (.notifyTextError(let entry), .activityFailure(let type, let error)):
            return { me, _ in with(type) { type in withError(error) { entry(me, type, $0) } } }
        case (.notifyCount(let entry), .count(let count)):
            return { me, _ in entry(me, count) }
        case (.askLaunch(let entry), .launch(let options, let kind, let detail)):
            return { me, serial in
                with(options) { options in with(detail) { detail in
                    var launch = adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: serial,
                                            options_json: options, invocation: kind, invocation_detail: detail)
                    _ = entry(me, &launch)
                } }
            }
        case (.askText(let entry), .text(let text)):
            return { me, _ in with(text) { _ = entry(me, $0) } }
        case (.doneText(let entry), .text(let text)):
            return { me, _ in with(text) { _ = entry(me, $0, NoOpCompletions.void) } }
        case (.askConfiguration(let entry), .text(let text)):
            return { me, _ in with(text) { _ = entry(me, $0) } }
        case (.askOpenURL(let entry), .openURL(let url, let source, let annotation, let inPlace)):
            return { me, serial in
                with(url) { url in with(source) { source in with(annotation) { annotation in
                    var request = adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial, url: url,
                                               source_application: source, annotation_json: annotation, open_in_place: inPlace)
                    _ = entry(me, &request)
                } } }
            }
        case (.askOrientations(let entry), .idiom(let idiom)):
            return { me, _ in _ = entry(me, idiom) }
        case (.fetchUserInfo(let entry), .userInfo(let userInfo)):
            return { me, _ in with(userInfo) { _ = entry(me, $0, NoOpCompletions.fetch) } }
        case (.replyUserInfo(let entry), .userInfo(let userInfo)):
            return { me, _ in with(userInfo) { _ = entry(me, $0, NoOpCompletions.json) } }
        case (.shortcut(let entry), .shortcutItem(let type, let title, let userInfo)):
            return { me, serial in
                with(type) { type in with(title) { title in with(userInfo) { userInfo in
                    var item = adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                                                 type: type, title: title, user_info_json: userInfo)
                    _ = entry(me, &item, NoOpCompletions.bool)
                } } }
            }
        default:
            return nil
        }
    }

    private static func withActivity(_ activity: FuzzedArguments.Activity, _ serial: UInt64,
                                     _ body: (UnsafePointer<adh_user_activity>) -> Void) {
        with(activity.type) { type in with(activity.webpageURL) { url in with(activity.userInfo) { userInfo in
            var activity = adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                                             activity_type: type, webpage_url: url, user_info_json: userInfo)
            body(&activity)
        } } }
    }

    private static func withError(_ error: FuzzedArguments.Failure, _ body: (UnsafePointer<adh_error>) -> Void) {
        with(error.domain) { domain in with(error.message) { message in
            var error = adh_error(struct_size: UInt32(MemoryLayout<adh_error>.size), domain: domain, code: error.code,
                                  message: message)
            body(&error)
        } }
    }

    /// `bytes` as a borrowed adh_string: absent for nil, a non-NULL pointer even when empty.
    private static func with(_ bytes: [UInt8]?, _ body: (adh_string) -> Void) {
        guard let bytes else { return body(.absent) }
        if bytes.isEmpty { return withABIString("", body) }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body(adh_string(data: $0.baseAddress, length: $0.count)) }
        }
    }
}

/// Completions that do nothing, for fuzzed calls: what the plugin does with its answer is the
/// completion check's business; here only crashes and hangs count.
enum NoOpCompletions {
    static var fetch: adh_fetch_completion { adh_fetch_completion(call: { _, _ in }, context: nil) }
    static var void: adh_void_completion { adh_void_completion(call: { _ in }, context: nil) }
    static var bool: adh_bool_completion { adh_bool_completion(call: { _, _ in }, context: nil) }
    static var json: adh_json_completion { adh_json_completion(call: { _, _ in }, context: nil) }
}

/// A subscriber whose entries are all NULL: running a ``FuzzTargets/Call`` on it draws the case's
/// values (for the progress line) without calling the plugin.
enum DryRun {
    nonisolated(unsafe) static let subscriber: RawSubscriber = {
        let empty = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
        empty.initialize(to: adh_subscriber())
        return RawSubscriber(pointer: UnsafePointer(empty), vtable: adh_subscriber())
    }()
}
