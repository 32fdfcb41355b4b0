import SubscriberABI
import SubscriberDelivery
import SubscriberKit
import Glibc
import Synchronization

/// The `adh_host` the host gives one C subscriber. Its `host_data` points to this object, which
/// holds, until the subscriber's `destroy` has returned, the subscriber's ``SubscriberContext``
/// (whose sink receives the plugin's log calls, attributed to the subscriber's name) and the
/// app-info and options JSON at stable addresses.
///
/// Lifetime: the `adh_host` struct and this object are never freed (about 200 bytes per subscriber
/// made), so a plugin that calls its host after `destroy` (from a thread it failed to stop, say)
/// never makes the host read freed memory. What is large (context, JSON) is released by
/// ``retire(reportingTo:)`` once `destroy` has returned; a call after that is dropped: the first
/// one is reported through the subscriber's context while its ``CSubscriber`` lives, every one is
/// counted in ``callsAfterDestroy``.
///
/// Every string the plugin passes is checked (``ABIStringProblem``) before it is read; a bad one is
/// reported as an error naming the subscriber and the call, never a trap.
final class HostInterface: Sendable {
    /// What the plugin may use until `destroy` has returned.
    private final class Live: Sendable {
        let context: SubscriberContext
        /// `{"name", "bundleIdentifier", "version"}`.
        let appInfoJSON: ABIBytes
        /// The subscriber's options from the manifest (`{}` when none).
        let optionsJSON: ABIBytes

        init(context: SubscriberContext) {
            self.context = context
            appInfoJSON = ABIBytes(JSONValue.object(context.application.infoJSON).serializedBytes())
            optionsJSON = ABIBytes(context.options.serializedBytes())
        }
    }

    private struct State {
        var live: Live?
        /// Where to report the first call after destroy: the owning subscriber's context, while it lives.
        weak var reporter: SubscriberContextReference?
        var callsAfterDestroy = 0
    }

    private let state: Mutex<State>
    /// The application's state, as the dispatcher keeps it (`adh.host.state/1`).
    private let applicationState: ApplicationStateCell
    /// The struct to pass to `create`; never freed, and only read by the plugin after init.
    nonisolated(unsafe) let pointer: UnsafePointer<adh_host>

    /// A host interface for a subscriber with `context`, reading the application's state from `state`.
    init(context: SubscriberContext, state applicationState: ApplicationStateCell) {
        state = Mutex(State(live: Live(context: context)))
        self.applicationState = applicationState
        let host = UnsafeMutablePointer<adh_host>.allocate(capacity: 1)
        host.initialize(to: adh_host(
            struct_size: UInt32(MemoryLayout<adh_host>.size),
            abi_major: ABI.major,
            abi_minor: ABI.minor,
            host_data: nil,
            log: { host, level, message in
                HostInterface.from(host)?.log(level: level, message: message)
            },
            log_event: { host, name, attributes in
                HostInterface.from(host)?.logEvent(name: name, attributes: attributes)
            },
            log_error: { host, message, attributes in
                HostInterface.from(host)?.logError(message: message, attributes: attributes)
            },
            app_info_json: { HostInterface.from($0)?.live(during: "app_info_json")?.appInfoJSON.string ?? .absent },
            options_json: { HostInterface.from($0)?.live(during: "options_json")?.optionsJSON.string ?? .absent },
            get_extension: { _, id in id.flatMap(HostServices.vtable(for:)) }))
        pointer = UnsafePointer(host)
        // Retained for the life of the process, like the struct that points to it.
        host.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// The subscriber's `destroy` has returned: release the context and JSON; later calls are dropped
    /// and the first is reported through `reporter`. [any-thread]
    func retire(reportingTo reporter: SubscriberContextReference) {
        state.withLock { state in
            state.live = nil
            state.reporter = reporter
        }
    }

    /// The application's state, for `adh.host.state/1`. [any-thread]
    fileprivate var currentState: adh_application_state { applicationState.rawState }

    /// The launch invocation, for `adh.host.state/1`. [main-thread]
    fileprivate var currentInvocation: (adh_invocation_kind, ABIBytes?) { applicationState.invocation }

    /// A request from the plugin (`adh.host.requests/1`): to the subscriber's sink, unless destroyed.
    fileprivate func request(_ request: SubscriberRequest, during call: String) {
        live(during: call)?.context.request(request)
    }

    /// How many calls arrived after ``retire(reportingTo:)`` (dropped). [any-thread]
    var callsAfterDestroy: Int { state.withLock { $0.callsAfterDestroy } }

    /// The object behind a host pointer the plugin passed back.
    fileprivate static func from(_ host: UnsafePointer<adh_host>?) -> HostInterface? {
        guard let data = host?.pointee.host_data else { return nil }
        return Unmanaged<HostInterface>.fromOpaque(data).takeUnretainedValue()
    }

    /// The live data, or nil (counted, the first one reported) after destroy.
    private func live(during call: String) -> Live? {
        let (live, reporter) = state.withLock { state -> (Live?, SubscriberContextReference?) in
            if let live = state.live { return (live, nil) }
            state.callsAfterDestroy += 1
            return (nil, state.callsAfterDestroy == 1 ? state.reporter : nil)
        }
        reporter?.log("\(call) called after destroy returned; dropped (later calls are dropped unreported)",
                      level: .error)
        return live
    }

    /// `text` read ("" when absent), or nil (reported through `context`) when the plugin passed a
    /// string that cannot be read.
    private func read(_ text: adh_string, of call: String, in context: SubscriberContext) -> String? {
        do throws(ABIStringProblem) {
            return try text.checkedString() ?? ""
        } catch {
            context.log("\(call): \(error)", level: .error)
            return nil
        }
    }

    private func log(level: adh_log_level, message: adh_string) {
        guard let live = live(during: "log"),
              let message = read(message, of: "log", in: live.context) else { return }
        // Levels outside the header's range are clamped to the nearest one rather than dropped, and said.
        let clamped = LogLevel(rawValue: min(max(level, LogLevel.trace.rawValue), LogLevel.critical.rawValue)) ?? .info
        if clamped.rawValue != level {
            live.context.log("log: level \(level), expected 0 (ADH_LOG_TRACE) to 6 (ADH_LOG_CRITICAL); logged as \(clamped)",
                             level: .error)
        }
        live.context.log(message, level: clamped)
    }

    private func logEvent(name: adh_string, attributes: adh_string) {
        guard let live = live(during: "log_event"),
              let name = read(name, of: "log_event name", in: live.context) else { return }
        if let text = Self.checkedText(attributes) { return live.context.logEvent(name, attributesText: text) }
        live.context.logEvent(name, attributes: self.attributes(attributes, of: "logEvent(\(name))", in: live.context))
    }

    private func logError(message: adh_string, attributes: adh_string) {
        guard let live = live(during: "log_error"),
              let message = read(message, of: "log_error", in: live.context) else { return }
        if let text = Self.checkedText(attributes) { return live.context.logError(message, attributesText: text) }
        live.context.logError(message, attributes: self.attributes(attributes, of: "logError", in: live.context))
    }

    /// Attributes sent in the serializer's form (as the SDK sends them), kept as that text: output
    /// writes them as they came, nothing parses them. Nil for anything else (absent, `{}`, another
    /// form, not JSON), which ``attributes(_:of:in:)`` reads and reports.
    private static func checkedText(_ text: adh_string) -> JSONObjectText? {
        guard text.problem == nil, let data = text.data else { return nil }
        return JSONObjectText(checking: UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self),
                                                            count: text.length))
    }

    /// Attributes sent as JSON text; a non-object (or an unreadable string) is reported and read as `{}`.
    private func attributes(_ text: adh_string, of call: String, in context: SubscriberContext) -> JSONObject {
        let (object, problem) = ABI.jsonObject(text, what: "\(call) attributes")
        guard let problem else { return object }
        if text.problem == nil {
            context.log(problem + "; read as {}", level: .warning)
        } else {
            context.log("\(problem); read as {}", level: .error)
        }
        return object
    }
}

/// The host services a plugin may ask for through `adh_host.get_extension`, one vtable each, made
/// once and shared by every subscriber: their functions find the subscriber's interface through the
/// `adh_host` they are passed.
enum HostServices {
    nonisolated(unsafe) private static let state: UnsafeMutablePointer<adh_host_state> = {
        let vtable = UnsafeMutablePointer<adh_host_state>.allocate(capacity: 1)
        vtable.initialize(to: adh_host_state(
            struct_size: UInt32(MemoryLayout<adh_host_state>.size),
            // Asked by every SDK entry call: no reference counted (the interface is never freed), the
            // state's raw value read as it is kept.
            application_state: { host in
                guard let data = host?.pointee.host_data else { return ApplicationState.notRunning.rawValue }
                return Unmanaged<HostInterface>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.currentState }
            },
            launch_invocation: { host, detail in
                let (kind, bytes) = HostInterface.from(host)?.currentInvocation ?? (adh_invocation_kind(ADH_INVOCATION_UNKNOWN), nil)
                detail?.pointee = bytes?.string ?? .absent
                return kind
            }))
        return vtable
    }()

    nonisolated(unsafe) private static let requests: UnsafeMutablePointer<adh_host_requests> = {
        let vtable = UnsafeMutablePointer<adh_host_requests>.allocate(capacity: 1)
        vtable.initialize(to: adh_host_requests(
            struct_size: UInt32(MemoryLayout<adh_host_requests>.size),
            register_for_remote_notifications: { host in
                HostInterface.from(host)?.request(.registerForRemoteNotifications, during: "register_for_remote_notifications")
            },
            update_supported_interface_orientations: { host in
                HostInterface.from(host)?.request(.updateSupportedInterfaceOrientations,
                                                  during: "update_supported_interface_orientations")
            }))
        return vtable
    }()

    /// The service vtable of `id`; nil (NULL) for an id this host does not offer.
    static func vtable(for id: UnsafePointer<CChar>) -> UnsafeRawPointer? {
        if strcmp(id, ADH_EXT_HOST_STATE) == 0 { return UnsafeRawPointer(state) }
        if strcmp(id, ADH_EXT_HOST_REQUESTS) == 0 { return UnsafeRawPointer(requests) }
        return nil
    }
}

/// The application's state, shared between the dispatcher that changes it and the host interfaces
/// that plugins read it through (from any thread).
package final class ApplicationStateCell: Sendable {
    private let raw = Atomic<Int32>(ApplicationState.notRunning.rawValue)

    package init() {}

    /// The state now. [any-thread]
    package var state: ApplicationState {
        get { ApplicationState(rawValue: raw.load(ordering: .acquiring)) ?? .notRunning }
        set { raw.store(newValue.rawValue, ordering: .releasing) }
    }

    /// The state's C value (`ADH_APPLICATION_*`), as kept. [any-thread]
    package var rawState: Int32 { raw.load(ordering: .acquiring) }

    /// How the app was launched, as C reads it: the kind and the bytes of its detail. Written and read
    /// on the main thread only (`launch_invocation` is [main-thread]); the bytes stay until the next
    /// change, which only an event makes.
    nonisolated(unsafe) private(set) var invocation: (adh_invocation_kind, ABIBytes?) = (adh_invocation_kind(ADH_INVOCATION_UNKNOWN), nil)

    /// Records how the app was launched. [main-thread]
    package func setInvocation(_ launch: LaunchInvocation?) {
        guard let launch else { return invocation = (adh_invocation_kind(ADH_INVOCATION_UNKNOWN), nil) }
        invocation = (ABI.invocationKind(launch), ABI.invocationDetail(launch).map { ABIBytes($0) })
    }
}

/// A subscriber's context behind one reference, for what must not keep the subscriber's strings,
/// application, options and sink alive (a weak reference to it).
final class SubscriberContextReference: Sendable {
    let context: SubscriberContext

    init(_ context: SubscriberContext) { self.context = context }

    /// Logs through the context. [any-thread]
    func log(_ message: String, level: LogLevel) { context.log(message, level: level) }
}
