import SubscriberABI
import SubscriberKit

/// A subscriber made by a plugin through the C ABI. It has a handler for each non-NULL vtable entry
/// that the plugin's `struct_size` covers (its ``respondingEvents``), so the same dispatcher and
/// reconcilers drive it and in-process subscribers.
///
/// Each handler encodes its arguments into the C payload (once per distinct value, shared by all C
/// subscribers: ``PayloadEncodeCache``), calls the entry and decodes the answer; every call's
/// payload is checked against its own arguments, never taken to be the event's. Answers outside the
/// header's values are reported as warnings through the subscriber's context.
@MainActor
package final class CSubscriber {
    /// The name the plugin created this subscriber under.
    package let name: String
    /// The events whose entries are non-NULL and covered by the plugin's `struct_size`.
    package let respondingEvents: Set<LifecycleEvent>
    /// The context given at creation: its sink receives the plugin's log calls.
    package let context: SubscriberContext
    /// The same, behind one reference, for completion forwarders.
    let contextReference: SubscriberContextReference

    /// Its handler of each event, by event index; nil where the entry is NULL.
    package private(set) var handlers: [EventHandler?] = []

    /// The plugin's struct, passed back as `self` to every entry.
    private let subscriber: UnsafePointer<adh_subscriber>
    /// The plugin's `destroy`; nil once destroyed.
    private var destroyEntry: (@convention(c) (UnsafePointer<adh_subscriber>?) -> Void)?
    private var host: HostInterface?

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context` (app info, options, and the sink for its logs). Nil when `create` returns NULL or
    /// returns a struct without a `destroy` (reported through `context`; that instance lives on, so
    /// its host interface is kept for the rest of the process); ``init(creating:from:context:)``
    /// says which.
    package convenience init?(descriptor: UnsafePointer<adh_plugin_descriptor>, name: String, context: SubscriberContext) {
        try? self.init(creating: name, from: descriptor, context: context)
    }

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context` (app info, options, and the sink for its logs). Throws, and reports through
    /// `context`, when the descriptor has no `create`, `create` returns NULL, or it returns a struct
    /// without a `destroy`.
    /// [main-thread] `create` is a `[main-thread]` entry.
    package init(creating name: String, from descriptor: UnsafePointer<adh_plugin_descriptor>,
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
        self.destroyEntry = vtable.destroy
        self.host = host
        let entries = EventTable.rows.map { $0.read(vtable) }
        respondingEvents = Set(zip(EventTable.rows, entries).compactMap { $1 == nil ? nil : $0.event })
        handlers = zip(EventTable.rows, entries).map { row, entry in entry.map { handler(calling: $0, for: row.event) } }
    }

    /// The handler of `event`; nil when the plugin does not respond to it.
    package func handler(for event: LifecycleEvent) -> EventHandler? { handlers[event.index] }

    /// The smallest `adh_subscriber.struct_size` the host accepts: up to and including `destroy`.
    static let minimumStructSize = MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + MemoryLayout<UnsafeRawPointer?>.size

    /// Destroys the plugin's instance (its `destroy` entry), then retires the host interface: every
    /// log line written until `destroy` returned has reached the sink; later calls are dropped and
    /// reported. After this its handlers do nothing. Idempotent; `deinit` calls it.
    package func destroy() {
        guard let destroy = destroyEntry else { return }
        destroyEntry = nil
        destroy(subscriber)
        // The header keeps the host interface valid until destroy has returned; only now retire it.
        host?.retire(reportingTo: contextReference)
        host = nil
    }

    isolated deinit {
        destroy()
    }

    /// The plugin's struct, for the entry calls (CSubscriber+Entries.swift).
    var me: UnsafePointer<adh_subscriber> { subscriber }

    /// Whether the plugin's instance still exists (``destroy()`` not called yet).
    var isLive: Bool { destroyEntry != nil }

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
