import SubscriberABI
import SubscriberKit

/// The raw vtable entries the fuzz check feeds, one closure per event with arguments. Each builds
/// the C payload from ``FuzzValues`` and calls the entry directly (not through the host's bridge,
/// which only ever sends well-formed Swift values): invalid UTF-8 must reach the plugin as it is.
enum FuzzTargets {
    /// Calls one entry of `subscriber` with the values `values` draws; `serial` is a fresh payload
    /// serial (plugins may cache a decode per serial). Nil when the event takes no input to fuzz.
    typealias Call = (RawSubscriber, inout FuzzValues, UInt64) -> Void

    static func call(for event: LifecycleEvent) -> Call? {
        switch event {
        case .willFinishLaunching: { s, v, serial in launch(s.vtable.will_finish_launching, s, &v, serial) }
        case .didFinishLaunching: { s, v, serial in launch(s.vtable.did_finish_launching, s, &v, serial) }
        case .didRegisterForRemoteNotifications: { s, v, _ in
            let token = v.text("deviceToken")
            token.withUnsafeBufferPointer { s.vtable.did_register_for_remote_notifications?(s.pointer, adh_bytes(data: $0.baseAddress, length: $0.count)) }
        }
        case .didFailToRegisterForRemoteNotifications: { s, v, _ in
            withError(&v) { s.vtable.did_fail_to_register_for_remote_notifications?(s.pointer, $0) }
        }
        case .didReceiveRemoteNotification: { s, v, _ in
            let userInfo = v.jsonObject("userInfo")
            with(userInfo) { _ = s.vtable.did_receive_remote_notification?(s.pointer, $0, NoOpCompletions.fetch) }
        }
        case .handleEventsForBackgroundURLSession: { s, v, _ in
            let identifier = v.text("identifier")
            with(identifier) { _ = s.vtable.handle_events_for_background_url_session?(s.pointer, $0, NoOpCompletions.void) }
        }
        case .openURL: { s, v, serial in
            let url = v.text("url", url: true)
            let source = v.optionalText("sourceApplication")
            let annotation = v.jsonValue("annotation")
            let inPlace = v.pick("openInPlace", [ADH_FALSE, ADH_TRUE, ADH_NO_OPINION].map { adh_tristate($0) })
            with(url) { url in with(source) { source in with(annotation) { annotation in
                var request = adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial, url: url,
                                           source_application: source, annotation_json: annotation, open_in_place: inPlace)
                _ = s.vtable.open_url?(s.pointer, &request)
            } } }
        }
        case .willContinueUserActivity: { s, v, _ in
            let type = v.text("activityType")
            with(type) { _ = s.vtable.will_continue_user_activity?(s.pointer, $0) }
        }
        case .continueUserActivity: { s, v, serial in
            withActivity(&v, serial) { _ = s.vtable.continue_user_activity?(s.pointer, $0, NoOpCompletions.json) }
        }
        case .didUpdateUserActivity: { s, v, serial in
            withActivity(&v, serial) { s.vtable.did_update_user_activity?(s.pointer, $0) }
        }
        case .didFailToContinueUserActivity: { s, v, _ in
            let type = v.text("activityType")
            with(type) { type in withError(&v) { s.vtable.did_fail_to_continue_user_activity?(s.pointer, type, $0) } }
        }
        case .performActionForShortcutItem: { s, v, serial in
            let type = v.text("type"), title = v.text("title"), userInfo = v.jsonObject("userInfo")
            with(type) { type in with(title) { title in with(userInfo) { userInfo in
                var item = adh_shortcut_item(struct_size: UInt32(MemoryLayout<adh_shortcut_item>.size), serial: serial,
                                             type: type, title: title, user_info_json: userInfo)
                _ = s.vtable.perform_action_for_shortcut_item?(s.pointer, &item, NoOpCompletions.bool)
            } } }
        }
        case .supportedInterfaceOrientations: { s, v, _ in
            let idiom = v.raw32("idiom", known: UserInterfaceIdiom.allCases.map(\.rawValue))
            _ = s.vtable.supported_interface_orientations?(s.pointer, idiom)
        }
        case .shouldAllowExtensionPointIdentifier: { s, v, _ in
            let identifier = v.text("identifier")
            with(identifier) { _ = s.vtable.should_allow_extension_point_identifier?(s.pointer, $0) }
        }
        case .configurationForConnecting: { s, v, _ in
            let role = v.text("sceneRole")
            with(role) { _ = s.vtable.configuration_for_connecting?(s.pointer, $0) }
        }
        case .didDiscardSceneSessions: { s, v, _ in
            s.vtable.did_discard_scene_sessions?(s.pointer, v.integer("count"))
        }
        case .handleWatchKitExtensionRequest: { s, v, _ in
            let userInfo = v.jsonObject("userInfo")
            with(userInfo) { _ = s.vtable.handle_watchkit_extension_request?(s.pointer, $0, NoOpCompletions.json) }
        }
        default: nil
        }
    }

    private typealias LaunchEntry = @convention(c) (UnsafePointer<adh_subscriber>?, UnsafePointer<adh_launch>?) -> adh_tristate

    private static func launch(_ entry: LaunchEntry?, _ s: RawSubscriber, _ v: inout FuzzValues, _ serial: UInt64) {
        let options = v.jsonObject("launchOptions")
        let kind = v.pick("invocation", Array(adh_invocation_kind(ADH_INVOCATION_UNKNOWN)...adh_invocation_kind(ADH_INVOCATION_BACKGROUND)))
        let detail = v.optionalText("invocationDetail", url: true)
        with(options) { options in with(detail) { detail in
            var launch = adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: serial,
                                    options_json: options, invocation: kind, invocation_detail: detail)
            _ = entry?(s.pointer, &launch)
        } }
    }

    private static func withActivity(_ v: inout FuzzValues, _ serial: UInt64, _ body: (UnsafePointer<adh_user_activity>) -> Void) {
        let type = v.text("activityType"), url = v.optionalText("webpageURL", url: true)
        let userInfo = v.optionalJSONObject("userInfo")
        with(type) { type in with(url) { url in with(userInfo) { userInfo in
            var activity = adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                                             activity_type: type, webpage_url: url, user_info_json: userInfo)
            body(&activity)
        } } }
    }

    private static func withError(_ v: inout FuzzValues, _ body: (UnsafePointer<adh_error>) -> Void) {
        let domain = v.text("error.domain"), message = v.text("error.message"), code = v.integer("error.code")
        with(domain) { domain in with(message) { message in
            var error = adh_error(struct_size: UInt32(MemoryLayout<adh_error>.size), domain: domain, code: code, message: message)
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
