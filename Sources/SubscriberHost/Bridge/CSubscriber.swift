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
    /// its host interface is kept for the rest of the process); ``init(creating:from:context:)``
    /// says which.
    public convenience init?(descriptor: UnsafePointer<adh_plugin_descriptor>, name: String, context: SubscriberContext) {
        try? self.init(creating: name, from: descriptor, context: context)
    }

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context` (app info, options, and the sink for its logs). Throws, and reports through
    /// `context`, when the descriptor has no `create`, `create` returns NULL, or it returns a struct
    /// without a `destroy`.
    /// [main-thread] `create` is a `[main-thread]` entry.
    public init(creating name: String, from descriptor: UnsafePointer<adh_plugin_descriptor>,
                context: SubscriberContext) throws(CreateFailure) {
        let plugin = ABI.readCovered(descriptor)
        guard let create = plugin.create else {
            context.log("the plugin's descriptor has no create function", level: .error)
            throw .noCreateFunction
        }
        let host = HostInterface(context: context)
        guard let made = name.withCString({ create($0, host.pointer) }) else { throw .returnedNull }
        // A struct_size that does not reach destroy hides it (ABI.readCovered reads it as NULL): say
        // so, rather than that the subscriber "has no destroy".
        let structSize = made.pointee.struct_size
        guard Int(structSize) >= Self.minimumStructSize else {
            context.log("expected adh_subscriber.struct_size ≥ \(Self.minimumStructSize) (up to destroy), "
                        + "found \(structSize); not used, and it cannot be freed", level: .error)
            throw .structTooSmall(found: structSize, minimum: Self.minimumStructSize)
        }
        let vtable = ABI.readCovered(made)
        guard vtable.destroy != nil else {
            context.log("create returned a subscriber without destroy (struct_size \(structSize)); "
                        + "not used, and it cannot be freed", level: .error)
            // The instance can never be destroyed, so it may use its host interface for the rest of
            // the process: the interface is never retired.
            throw .noDestroy
        }
        self.name = name
        self.context = context
        self.contextReference = SubscriberContextReference(context)
        self.subscriber = made
        self.vtable = vtable
        self.host = host
        respondingEvents = Set(SubscriberEntries.respondingEvents(of: vtable))
    }

    /// The smallest `adh_subscriber.struct_size` the host accepts: up to and including `destroy`.
    static let minimumStructSize = MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + MemoryLayout<UnsafeRawPointer?>.size

    /// Destroys the plugin's instance (its `destroy` entry), then retires the host interface: every
    /// log line written until `destroy` returned has reached the sink; later calls are dropped and
    /// reported. After this every method does the non-responding default. Idempotent; `deinit` calls it.
    public func destroy() {
        guard let destroy = vtable.destroy else { return }
        vtable = adh_subscriber()
        destroy(subscriber)
        // The header keeps the host interface valid until destroy has returned; only now retire it.
        host?.retire(reportingTo: contextReference)
        host = nil
    }

    isolated deinit {
        destroy()
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
