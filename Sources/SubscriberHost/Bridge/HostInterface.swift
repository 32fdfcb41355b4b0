import SubscriberABI
import SubscriberKit

/// The `adh_host` the host gives one C subscriber: its `host_data` points (unretained) to this box,
/// which holds the subscriber's ``SubscriberContext`` (whose sink receives the plugin's log calls,
/// attributed to the subscriber's name) and the app-info and options JSON at stable addresses.
///
/// The owning ``CSubscriber`` keeps the box alive until `destroy` has returned, as the header
/// promises; the struct and the bytes are freed with the box.
final class HostInterface: @unchecked Sendable {
    // @unchecked: everything is immutable after init; the C struct is only read by the plugin.

    /// The subscriber's context: name, app info, options, sink.
    let context: SubscriberContext
    /// `{"name", "bundleIdentifier", "version"}`.
    let appInfoJSON: ABIBytes
    /// The subscriber's options from the manifest (`{}` when none).
    let optionsJSON: ABIBytes
    private let host: UnsafeMutablePointer<adh_host>

    /// A host interface for a subscriber with `context`.
    init(context: SubscriberContext) {
        self.context = context
        appInfoJSON = ABIBytes(JSONValue.object(context.application.infoJSON).serializedBytes())
        optionsJSON = ABIBytes(context.options.serializedBytes())
        host = .allocate(capacity: 1)
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
            app_info_json: { HostInterface.from($0)?.appInfoJSON.string ?? .absent },
            options_json: { HostInterface.from($0)?.optionsJSON.string ?? .absent }))
        host.pointee.host_data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        host.deinitialize(count: 1).deallocate()
    }

    /// The struct to pass to `create`.
    var pointer: UnsafePointer<adh_host> { UnsafePointer(host) }

    /// The box behind a host pointer the plugin passed back.
    private static func from(_ host: UnsafePointer<adh_host>?) -> HostInterface? {
        guard let data = host?.pointee.host_data else { return nil }
        return Unmanaged<HostInterface>.fromOpaque(data).takeUnretainedValue()
    }

    private func log(level: adh_log_level, message: adh_string) {
        // Levels outside the header's range are clamped to the nearest one rather than dropped.
        let level = LogLevel(rawValue: min(max(level, LogLevel.trace.rawValue), LogLevel.critical.rawValue)) ?? .info
        context.log(message.string ?? "", level: level)
    }

    private func logEvent(name: adh_string, attributes: adh_string) {
        let name = name.string ?? ""
        context.logEvent(name, attributes: self.attributes(attributes, of: "logEvent(\(name))"))
    }

    private func logError(message: adh_string, attributes: adh_string) {
        context.logError(message.string ?? "", attributes: self.attributes(attributes, of: "logError"))
    }

    /// Attributes sent as JSON text; a non-object is reported as a warning and read as `{}`.
    private func attributes(_ text: adh_string, of call: String) -> JSONObject {
        let (object, problem) = ABI.jsonObject(text, what: "\(call) attributes")
        if let problem { context.log(problem + "; read as {}", level: .warning) }
        return object
    }
}
