import SubscriberABI
import SubscriberDelivery
import SubscriberKit

/// A subscriber made by a plugin through the C ABI: its struct, and the entry of each event it
/// responds to, read once, right after `create`, from `adh_subscriber` and from the vtable of each
/// extension family `get_extension` gives. The dispatcher calls those entries directly
/// (``Responder``); everything about calling them is the event rows'.
@MainActor
package final class CSubscriber {
    /// The name the plugin created this subscriber under.
    package let name: String
    /// The context given at creation: its sink receives the plugin's log calls.
    package let context: SubscriberContext
    /// The same, behind one reference: the host interface reports a call after destroy through it
    /// while this subscriber lives.
    let contextReference: SubscriberContextReference
    /// By event index: the entry of each event this subscriber responds to, as a raw function
    /// pointer; nil where the entry is NULL, not covered by its vtable's `struct_size`, or in a family
    /// the subscriber is not in. All nil once destroyed.
    package private(set) var entries: [UnsafeRawPointer?]
    /// Whether the subscriber's struct reaches `get_extension` (ABI 1.1 or later).
    package let speaksExtensions: Bool

    /// The plugin's struct, passed back as `self` to every entry.
    package let me: UnsafePointer<adh_subscriber>
    /// The descriptor of the plugin that made it (its id names it in reports).
    package let descriptor: UnsafePointer<adh_plugin_descriptor>
    /// The C type of a URL hook's `decide` (adh/ext/url_hook.h).
    package typealias DecideEntry = @convention(c) (UnsafePointer<adh_subscriber>?, UnsafePointer<CChar>?, adh_string,
                                                     UnsafeMutablePointer<adh_string>?) -> Int32
    /// Its URL hook's `decide` when `get_extension` gave an `adh.url-hook/1` vtable with one; nil
    /// otherwise, and once destroyed.
    package private(set) var urlHookEntry: DecideEntry?
    /// The plugin's `destroy`; nil once destroyed.
    private var destroyEntry: (@convention(c) (UnsafePointer<adh_subscriber>?) -> Void)?
    private var host: HostInterface?

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context`; nil when that fails (``init(creating:from:context:state:)`` says why).
    package convenience init?(descriptor: UnsafePointer<adh_plugin_descriptor>, name: String, context: SubscriberContext) {
        try? self.init(creating: name, from: descriptor, context: context)
    }

    /// Creates subscriber `name` through `descriptor`'s `create`, with a host interface made from
    /// `context` (app info, options, and the sink for its logs) that reads the application's state
    /// from `state`. Throws, and reports through `context`, when the descriptor has no `create`,
    /// `create` returns NULL, or it returns a struct without a `destroy`, or a struct — its own or a
    /// family's vtable from `get_extension` — that cannot be read (``VTableCheck``: misaligned, or
    /// memory it covers unreadable); in that last case a subscriber it can destroy is destroyed.
    /// [main-thread] `create` and `get_extension` are `[main-thread]` entries.
    package init(creating name: String, from descriptor: UnsafePointer<adh_plugin_descriptor>,
                 context: SubscriberContext, state: ApplicationStateCell = ApplicationStateCell()) throws(CreateFailure) {
        let plugin = ABI.readCovered(descriptor)
        guard let create = plugin.create else {
            context.log("the plugin's descriptor has no create function", level: .error)
            throw .noCreateFunction
        }
        let host = HostInterface(context: context, state: state)
        guard let made = name.withCString({ create($0, host.pointer) }) else { throw .returnedNull }
        // Misaligned or unreadable, the struct cannot be read, so neither can its destroy.
        if let problem = VTableCheck.problem(at: made, size: MemoryLayout<adh_subscriber>.size) {
            context.log("create: expected \(problem.expected), found \(problem.found); not used, and it cannot be freed",
                        level: .error)
            throw .unreadableStruct(source: "create", expected: problem.expected, found: problem.found)
        }
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
        // Each family's vtable, asked for once: the core is the struct itself; an extension family's
        // comes from get_extension (NULL: not in the family). The host keeps the pointers, as the
        // header lets it, until destroy. One that cannot be read refuses the subscriber (destroyed).
        var familyVTables: [UnsafeRawPointer?] = []
        for family in EventFamily.all {
            guard let id = family.extensionID else {
                familyVTables.append(UnsafeRawPointer(made))
                continue
            }
            let table = vtable.get_extension?(made, id)
            if let table, let problem = VTableCheck.problem(at: table, size: family.vtableSize) {
                let source = "get_extension(\"\(id)\")"
                context.log("\(source): expected \(problem.expected), found \(problem.found); not used", level: .error)
                vtable.destroy?(made)
                host.retire(reportingTo: SubscriberContextReference(context))
                throw .unreadableStruct(source: source, expected: problem.expected, found: problem.found)
            }
            familyVTables.append(table)
        }
        // The URL hook (adh/ext/url_hook.h) is no event family: one entry, asked for once, checked alike.
        var hookEntry: DecideEntry?
        let hookTable = vtable.get_extension?(made, ADH_EXT_URL_HOOK)
        // One vtable handed out for two ids (a `return &vtable;` that does not compare the id): the
        // host would call one family's struct as another's. Refused, never called.
        let handedOut = zip(EventFamily.all, familyVTables).compactMap { family, table in
            family.extensionID.flatMap { id in table.map { (id: id, table: $0) } }
        } + (hookTable.map { [(id: ADH_EXT_URL_HOOK, table: $0)] } ?? [])
            + [(id: "the subscriber itself (create's)", table: UnsafeRawPointer(made))]
        for (index, first) in handedOut.enumerated() {
            guard let second = handedOut[(index + 1)...].first(where: { $0.table == first.table }) else { continue }
            let expected = "a vtable of its own for each id it implements (NULL for any other)"
            let found = "the same pointer for \"\(first.id)\" and " + (second.table == UnsafeRawPointer(made) ? second.id : "\"\(second.id)\"")
            context.log("get_extension: expected \(expected), found \(found); not used", level: .error)
            vtable.destroy?(made)
            host.retire(reportingTo: SubscriberContextReference(context))
            throw .unreadableStruct(source: "get_extension", expected: expected, found: found)
        }
        if let table = hookTable {
            if let problem = VTableCheck.problem(at: table, size: MemoryLayout<adh_url_hook>.size) {
                let source = "get_extension(\"\(ADH_EXT_URL_HOOK)\")"
                context.log("\(source): expected \(problem.expected), found \(problem.found); not used", level: .error)
                vtable.destroy?(made)
                host.retire(reportingTo: SubscriberContextReference(context))
                throw .unreadableStruct(source: source, expected: problem.expected, found: problem.found)
            }
            hookEntry = ABI.readCovered(table.assumingMemoryBound(to: adh_url_hook.self)).decide
        }
        self.name = name
        self.descriptor = descriptor
        self.urlHookEntry = hookEntry
        self.context = context
        self.contextReference = SubscriberContextReference(context)
        self.me = made
        self.destroyEntry = vtable.destroy
        self.host = host
        speaksExtensions = vtable.get_extension != nil
        entries = EventTable.rows.map { row in familyVTables[row.family.index].flatMap { row.entry(in: $0) } }
        respondingEvents = zip(LifecycleEvent.allCases, entries).compactMap { $1 == nil ? nil : $0 }
    }

    /// The events this subscriber responds to, in table order: its entries that are set, as created
    /// (still known after ``destroy()``, which clears the entries).
    package let respondingEvents: [LifecycleEvent]

    /// The smallest `adh_subscriber.struct_size` the host accepts: up to and including `destroy`.
    static let minimumStructSize = MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + MemoryLayout<UnsafeRawPointer?>.size

    /// Destroys the plugin's instance (its `destroy` entry), then retires the host interface: every
    /// log line written until `destroy` returned has reached the sink; later calls are dropped and
    /// reported. After this it responds to nothing. Idempotent; `deinit` calls it.
    package func destroy() {
        guard let destroy = destroyEntry else { return }
        destroyEntry = nil
        entries = entries.map { _ in nil }
        urlHookEntry = nil
        destroy(me)
        // The header keeps the host interface valid until destroy has returned; only now retire it.
        host?.retire(reportingTo: contextReference)
        host = nil
    }

    isolated deinit {
        destroy()
    }

    /// Whether the plugin's instance still exists (``destroy()`` not called yet).
    package var isLive: Bool { destroyEntry != nil }
}
