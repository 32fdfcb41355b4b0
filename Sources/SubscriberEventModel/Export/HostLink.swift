import Synchronization
import SubscriberABI
import SubscriberValues

/// A plugin's view of the `adh_host` it was created with: the ``SubscriberLogSink`` behind its
/// subscriber's ``SubscriberContext``, and its data source (app info, options).
///
/// The host interface is only valid until `destroy` returns, but a subscriber may keep its context
/// and log from any thread at any time. So every call goes through a lock, and ``close()`` (called
/// by `destroy`) makes later calls do nothing instead of touching freed host memory.
final class HostLink: SubscriberLogSink {
    // Immutable pointers; the lock around them, not the type, makes them safe to use from any thread.
    private struct Host: @unchecked Sendable {
        let pointer: UnsafePointer<adh_host>
        let functions: adh_host
    }

    /// The host while the link is open, and the bytes of the attributes being sent (reused: a
    /// logged event's attributes are serialized under the lock, straight into them, and sent as they
    /// are: no string made, no allocation once the first has grown it).
    private struct Linked: Sendable {
        var host: Host?
        var scratch: [UInt8] = []
    }

    /// The scratch bytes kept between calls at most (a larger one is let go after its call).
    private static let scratchKept = 4096

    private let host: Mutex<Linked>
    /// The host's services, asked for once.
    private struct Services: @unchecked Sendable {
        // @unchecked: C structs and pointers, immutable.
        /// `adh.host.requests/1`, when the host offers it.
        var requests: adh_host_requests?
        /// `adh.host.state/1`'s `application_state`, when the host offers it. Called without the lock:
        /// only on the main thread inside an entry call, while the host is necessarily alive.
        var applicationState: (@convention(c) (UnsafePointer<adh_host>?) -> adh_application_state)?
        /// `adh.host.state/1`'s `launch_invocation`, when the host's struct has it. Same rules.
        var launchInvocation: (@convention(c) (UnsafePointer<adh_host>?, UnsafeMutablePointer<adh_string>?) -> adh_invocation_kind)?
        var host: UnsafePointer<adh_host>
    }

    private let services: Services

    /// A link to `host`, read as far as its `struct_size` covers; its services are asked for once.
    init(_ host: UnsafePointer<adh_host>) {
        let functions = ABI.readCovered(host)
        self.host = Mutex(Linked(host: Host(pointer: host, functions: functions)))
        let state = functions.get_extension.flatMap { $0(host, ADH_EXT_HOST_STATE) }
            .map { ABI.readCovered($0.assumingMemoryBound(to: adh_host_state.self)) }
        let requests = functions.get_extension.flatMap { $0(host, ADH_EXT_HOST_REQUESTS) }
            .map { ABI.readCovered($0.assumingMemoryBound(to: adh_host_requests.self)) }
        // Read as far as the host's struct_size covers: a field it does not have reads as NULL.
        services = Services(requests: requests, applicationState: state?.application_state,
                            launchInvocation: state?.launch_invocation, host: host)
    }

    /// The application's state as the host tracks it; nil when the host does not say (a 1.0 host).
    /// [main-thread] Inside an entry call.
    func applicationState() -> ApplicationState? {
        services.applicationState.flatMap { ApplicationState(rawValue: $0(services.host)) }
    }

    /// How the app was launched as the host classifies it now; nil when the host does not say.
    /// [main-thread] Inside an entry call.
    func launchInvocation() -> LaunchInvocation? {
        guard let read = services.launchInvocation else { return nil }
        var detail = adh_string.absent
        let kind = read(services.host, &detail)
        return ABI.invocation(kind: kind, detail: detail)
    }

    func request(_ request: SubscriberRequest, from subscriber: String) {
        host.withLock { linked in
            guard let host = linked.host, let requests = services.requests else { return }
            switch request {
            case .registerForRemoteNotifications: requests.register_for_remote_notifications?(host.pointer)
            case .updateSupportedInterfaceOrientations: requests.update_supported_interface_orientations?(host.pointer)
            }
        }
    }

    /// Cuts the link: from now on every call does nothing. [main-thread]
    func close() {
        host.withLock { $0 = Linked() }
    }

    func log(subscriber: String, level: LogLevel, message: String) {
        host.withLock { linked in
            guard let host = linked.host, let log = host.functions.log else { return }
            withABIString(message) { log(host.pointer, level.rawValue, $0) }
        }
    }

    func logEvent(subscriber: String, name: String, attributes: JSONObject) {
        host.withLock { linked in
            guard let host = linked.host, let logEvent = host.functions.log_event else { return }
            Self.withAttributes(attributes, in: &linked.scratch) { attributes in
                withABIString(name) { logEvent(host.pointer, $0, attributes) }
            }
        }
    }

    func logError(subscriber: String, message: String, attributes: JSONObject) {
        host.withLock { linked in
            guard let host = linked.host, let logError = host.functions.log_error else { return }
            Self.withAttributes(attributes, in: &linked.scratch) { attributes in
                withABIString(message) { logError(host.pointer, $0, attributes) }
            }
        }
    }

    /// The application the host's app info describes, and a problem line when it was not a JSON
    /// object. What a host writes, a flat object of plain strings, is read from its bytes
    /// (``flatStrings(_:_:)``); anything else is parsed, and read as parsed.
    func application() -> (application: Application, problem: String?) {
        let text = text { $0.app_info_json }
        if let bytes = try? text.checkedBytes(),
           let fields = Self.flatStrings(bytes, ("name", "bundleIdentifier", "version")) {
            return (Application(name: fields.0 ?? "", bundleIdentifier: fields.1 ?? "", version: fields.2 ?? ""), nil)
        }
        let (info, problem) = ABI.jsonObject(text, what: "the host's app_info_json")
        return (Application(infoJSON: info), problem)
    }

    /// This subscriber's options: nil for `{}` (none: what a host gives a subscriber without
    /// options, read without the parser), and a problem line when they were not valid JSON.
    func options() -> (options: JSONValue?, problem: String?) {
        let text = text { $0.options_json }
        if let bytes = try? text.checkedBytes(), Self.isEmptyObject(bytes) { return (nil, nil) }
        do {
            return (try ABI.parseJSON(text), nil)
        } catch {
            return (nil, "the host's options_json: expected JSON, found invalid JSON (\(error))")
        }
    }

    /// The values of members `keys` of the JSON object `bytes` holds, when it is flat: whitespace,
    /// `{`, members among `keys`, each once, whose values are strings of printable ASCII with nothing
    /// escaped, `}`, whitespace. Nil for anything else (the parser reads it, and says what is
    /// wrong): a subset of what the parser accepts, read as the parser reads it. A plugin reads its
    /// app info at `create`; this keeps the parser's code pages out of memory for three strings.
    static func flatStrings(_ bytes: UnsafeBufferPointer<UInt8>, _ keys: (String, String, String))
        -> (String?, String?, String?)?
    {
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        /// A plain string's characters, without its quotes.
        func plainString() -> Range<Int>? {
            guard take(0x22) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != 0x22 {
                guard bytes[index] >= 0x20, bytes[index] < 0x7F, bytes[index] != 0x5C else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            return start..<(index - 1)
        }
        // Plain loops over the buffer, no slices or zips: a generic type with requirements made here
        // would be checked against every loaded image's conformances, at every plugin's `create`.
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + range.lowerBound }, count: range.count),
                   as: UTF8.self)
        }
        func matches(_ range: Range<Int>, _ key: String) -> Bool {
            guard range.count == key.utf8.count else { return false }
            var index = range.lowerBound
            for byte in key.utf8 {
                guard bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
        var found: (String?, String?, String?) = (nil, nil, nil)
        skipSpace()
        guard take(0x7B) else { return nil }
        skipSpace()
        if !take(0x7D) {
            repeat {
                skipSpace()
                guard let key = plainString() else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }
                skipSpace()
                guard let value = plainString() else { return nil }
                // Another key, or a key twice, is the parser's to read (and report).
                if matches(key, keys.0), found.0 == nil { found.0 = string(value) }
                else if matches(key, keys.1), found.1 == nil { found.1 = string(value) }
                else if matches(key, keys.2), found.2 == nil { found.2 = string(value) }
                else { return nil }
                skipSpace()
            } while take(0x2C)
            guard take(0x7D) else { return nil }
        }
        skipSpace()
        return index == bytes.count ? found : nil
    }

    /// Whether `bytes` hold `{}`, with whitespace around and inside.
    static func isEmptyObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var braces = 0
        for byte in bytes {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case 0x7B where braces == 0, 0x7D where braces == 1: braces += 1
            default: return false
            }
        }
        return braces == 2
    }

    private typealias TextFunction = @convention(c) (UnsafePointer<adh_host>?) -> adh_string

    /// What the data-source function `pick` chooses returns; absent when the link is closed or the
    /// host has none. The bytes are host-owned and valid as long as the host struct: parse them at
    /// once. (A closure, not a key path: a key path is instantiated by the runtime in every image.)
    private func text(_ pick: (adh_host) -> TextFunction?) -> adh_string {
        host.withLock { linked -> UncheckedSendable<adh_string> in
            guard let host = linked.host, let read = pick(host.functions) else { return UncheckedSendable(.absent) }
            return UncheckedSendable(read(host.pointer))
        }.value
    }

    /// Calls `body` with `attributes` as JSON text (absent for none, as the header allows), written
    /// into `scratch` (compact, as the serializer writes it) and handed over as those bytes.
    private static func withAttributes(_ attributes: JSONObject, in scratch: inout [UInt8], _ body: (adh_string) -> Void) {
        guard !attributes.isEmpty else { return body(.absent) }
        // Written after the texts before it, cleared once they fill the scratch (clearing an array
        // for each call cost 80 instructions); a scratch grown past it by a long text is let go.
        if scratch.count >= scratchKept { scratch.removeAll(keepingCapacity: true) }
        let start = scratch.count
        attributes.appendSerialized(to: &scratch)
        scratch.withUnsafeBufferPointer { all in
            let base = UnsafeRawPointer(all.baseAddress! + start).assumingMemoryBound(to: CChar.self)
            body(adh_string(data: base, length: all.count - start))
        }
        if scratch.capacity > 2 * scratchKept { scratch = [] }
    }
}
