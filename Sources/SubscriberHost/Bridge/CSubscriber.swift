import SubscriberABI
import SubscriberKit

/// A subscriber made by a plugin through the C ABI, wrapped so that it conforms to
/// ``AppDelegateSubscriber`` like any in-process subscriber: the same dispatcher and reconcilers
/// drive both.
///
/// Each protocol method encodes its Swift arguments into the C payload (once per distinct value,
/// shared by all C subscribers: ``PayloadEncodeCache``), calls the vtable entry and decodes the
/// answer. The methods may be called directly, also from inside a dispatch (another subscriber's
/// method): every call's payload is checked against its own arguments, never taken to be the
/// event's. An entry that is NULL, or that the plugin's `struct_size` does not cover, does what the
/// protocol's default does (no opinion, nothing, a declined completion), and its event is missing
/// from ``respondingEvents``. Answers outside the header's values are reported as warnings through
/// the subscriber's context.
@MainActor
public final class CSubscriber: AppDelegateSubscriber {
    /// The name the plugin created this subscriber under.
    public let name: String
    /// The events whose entries are non-NULL and covered by the plugin's `struct_size`.
    public let respondingEvents: Set<LifecycleEvent>
    /// The context given at creation: its sink receives the plugin's log calls.
    public let context: SubscriberContext
    /// The same, behind one reference, for completion forwarders.
    let contextReference: SubscriberContextReference

    /// The plugin's struct, passed back as `self` to every entry.
    private let subscriber: UnsafePointer<adh_subscriber>
    /// The covered part of the plugin's struct; all entries NULL once destroyed.
    private(set) var vtable: adh_subscriber
    private var host: HostInterface?

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context` (app info, options, and the sink for its logs). Nil when `create` returns NULL or
    /// returns a struct without a `destroy` (reported through `context`; that instance lives on, so
    /// its host interface is kept for the rest of the process).
    public init?(descriptor: UnsafePointer<adh_plugin_descriptor>, name: String, context: SubscriberContext) {
        let plugin = ABI.readCovered(descriptor)
        guard let create = plugin.create else {
            context.log("\(name): the plugin's descriptor has no create function", level: .error)
            return nil
        }
        let host = HostInterface(context: context)
        guard let made = name.withCString({ create($0, host.pointer) }) else { return nil }
        let vtable = ABI.readCovered(made)
        guard vtable.destroy != nil else {
            context.log("\(name): create returned a subscriber without destroy (struct_size \(made.pointee.struct_size)); "
                        + "not used, and it cannot be freed", level: .error)
            // The instance can never be destroyed, so it may use its host interface for the rest of
            // the process (the header keeps it valid until destroy): leak the interface on purpose.
            _ = Unmanaged.passRetained(host)
            return nil
        }
        self.name = name
        self.context = context
        self.contextReference = SubscriberContextReference(context)
        self.subscriber = made
        self.vtable = vtable
        self.host = host
        respondingEvents = Self.respondingEvents(of: vtable)
    }

    /// Destroys the plugin's instance (its `destroy` entry), then frees the host interface. After
    /// this every method does the non-responding default. Idempotent; `deinit` calls it.
    public func destroy() {
        guard let destroy = vtable.destroy else { return }
        vtable = adh_subscriber()
        destroy(subscriber)
        // The header keeps the host interface valid until destroy has returned; only now free it.
        host = nil
    }

    isolated deinit {
        destroy()
    }

    /// The events whose entries `v` (as read, covered by its `struct_size`) fills. Plain field
    /// reads: the 29 key paths this used cost 2.3 million instructions to instantiate, the largest
    /// part of loading a single plugin.
    static func respondingEvents(of v: adh_subscriber) -> Set<LifecycleEvent> {
        let entries: [(LifecycleEvent, Bool)] = [
            (.willFinishLaunching, v.will_finish_launching != nil),
            (.didFinishLaunching, v.did_finish_launching != nil),
            (.didBecomeActive, v.did_become_active != nil),
            (.willResignActive, v.will_resign_active != nil),
            (.didEnterBackground, v.did_enter_background != nil),
            (.willEnterForeground, v.will_enter_foreground != nil),
            (.willTerminate, v.will_terminate != nil),
            (.didReceiveMemoryWarning, v.did_receive_memory_warning != nil),
            (.significantTimeChange, v.significant_time_change != nil),
            (.protectedDataWillBecomeUnavailable, v.protected_data_will_become_unavailable != nil),
            (.protectedDataDidBecomeAvailable, v.protected_data_did_become_available != nil),
            (.didRegisterForRemoteNotifications, v.did_register_for_remote_notifications != nil),
            (.didFailToRegisterForRemoteNotifications, v.did_fail_to_register_for_remote_notifications != nil),
            (.didReceiveRemoteNotification, v.did_receive_remote_notification != nil),
            (.performFetch, v.perform_fetch != nil),
            (.handleEventsForBackgroundURLSession, v.handle_events_for_background_url_session != nil),
            (.openURL, v.open_url != nil),
            (.willContinueUserActivity, v.will_continue_user_activity != nil),
            (.continueUserActivity, v.continue_user_activity != nil),
            (.didUpdateUserActivity, v.did_update_user_activity != nil),
            (.didFailToContinueUserActivity, v.did_fail_to_continue_user_activity != nil),
            (.performActionForShortcutItem, v.perform_action_for_shortcut_item != nil),
            (.supportedInterfaceOrientations, v.supported_interface_orientations != nil),
            (.shouldAllowExtensionPointIdentifier, v.should_allow_extension_point_identifier != nil),
            (.shouldSaveSecureApplicationState, v.should_save_secure_application_state != nil),
            (.shouldRestoreSecureApplicationState, v.should_restore_secure_application_state != nil),
            (.configurationForConnecting, v.configuration_for_connecting != nil),
            (.didDiscardSceneSessions, v.did_discard_scene_sessions != nil),
            (.handleWatchKitExtensionRequest, v.handle_watchkit_extension_request != nil),
        ]
        return Set(entries.lazy.filter { $0.1 }.map { $0.0 })
    }

    /// The plugin's struct, for the entry calls in the `CSubscriber+*.swift` files.
    var me: UnsafePointer<adh_subscriber> { subscriber }

    /// A tristate answer of `event` as `Bool?`, reporting a value outside the header's three.
    func answer(_ raw: adh_tristate, of event: LifecycleEvent) -> Bool? {
        if !ABI.isValidTristate(raw) {
            context.log("\(event) returned \(raw), expected -1 (no opinion), 0 (false) or 1 (true); "
                        + "read as no opinion", level: .warning)
        }
        return ABI.bool(fromTristate: raw)
    }

    /// Whether a completion event's response says the plugin declined, reporting an unknown value
    /// (read as "responds", so the deadline, not a guess, settles it).
    func declined(_ response: adh_response, of event: LifecycleEvent) -> Bool {
        if response != ABI.declines && response != ABI.responds {
            context.log("\(event) returned \(response), expected 0 (declines) or 1 (responds); read as responds",
                        level: .warning)
        }
        return response == ABI.declines
    }
}
