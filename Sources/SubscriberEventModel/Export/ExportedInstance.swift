import Glibc
import SubscriberABI
import SubscriberValues

/// One exported subscriber instance: what an `adh_subscriber`'s `instance` points to (retained).
/// Holds the subscriber, its handlers, the `Application` value every event receives, the vtables of
/// the extension families it is in, and the bytes of the last configuration name, which must stay
/// valid until the next call or `destroy`.
@MainActor
package final class ExportedInstance {
    /// The plugin author's subscriber.
    let subscriber: AnyObject
    /// Its handler of each event, by event index; nil for the events its type does not handle
    /// (their vtable entries are NULL).
    let handlers: [AnyEventHandler?]
    /// ``handlers`` and ``subscriber`` as the entries read them: unretained (the properties above
    /// own them), so a call retains nothing.
    private let handlerTable: UnsafeMutablePointer<Unmanaged<AnyEventHandler>?>
    private let unretainedSubscriber: Unmanaged<AnyObject>
    /// This image's decode cache, held here so that a call does not go through its lazy global.
    let decodeCache: DecodeCache
    /// The host link behind the subscriber's context.
    let link: HostLink
    /// The name the subscriber was created under.
    let name: String
    /// The application passed to every event; launch events set its `launchInvocation`, every call
    /// its `applicationState`. Kept in an immutable box that events borrow (``with(_:fallback:_:)``):
    /// a copy would retain and release its strings on every call.
    var application: Application {
        get { applicationBox.value }
        set { applicationBox = ApplicationBox(value: newValue) }
    }
    // Unchecked: only the main thread touches these, one entry call at a time; checked, each call
    // would pay for exclusivity bookkeeping twice.
    @exclusivity(unchecked) private(set) var applicationBox: ApplicationBox
    /// Bytes an answer points to (a configuration name), kept alive for the host until the next call.
    @exclusivity(unchecked) var kept: AnyObject?
    /// By event index: the completion receiver of the event's last call, reused when nobody holds it
    /// (``NoReceiver/shared`` before the first, which is never uniquely referenced).
    private let receivers: UnsafeMutablePointer<AnyObject>
    /// By event index: whether a call of the event is running on its receiver (a call made from
    /// inside it, a nested dispatch, must neither reuse nor replace it: ``withReceiver(_:_:make:_:)``).
    private let receiverBusy: UnsafeMutablePointer<Bool>
    /// By family index: the vtable made for each extension family the subscriber is in; nil for the
    /// core family and for families it is not in.
    private(set) var extensions: [UnsafeMutableRawPointer?] = []

    /// The rows of the events the subscriber handles, in table order (its witnesses').
    let rows: [EventRow]

    private init(subscriber: AnyObject, witnesses: [_EventWitness?], link: HostLink, name: String,
                 application: Application) {
        self.subscriber = subscriber
        // A witness's position is its event's index in the table (the witness lists are in table
        // order). Numbered here, the rows this image makes are the adopted events' alone: the whole
        // table is never built inside a plugin.
        for (index, witness) in witnesses.enumerated() {
            guard let row = witness?.row else { continue }
            assert(row.index < 0 || row.index == index, "\(row.name): witness at \(index), row at \(row.index)")
            if row.index < 0 { row.index = index }
        }
        rows = witnesses.compactMap { $0?.row }
        let handlers = witnesses.map { $0?.handler }
        self.handlers = handlers
        handlerTable = .allocate(capacity: handlers.count)
        handlerTable.initialize(from: handlers.map { $0.map(Unmanaged.passUnretained) }, count: handlers.count)
        unretainedSubscriber = Unmanaged.passUnretained(subscriber)
        decodeCache = DecodeCache.shared
        receivers = .allocate(capacity: handlers.count)
        receivers.initialize(repeating: NoReceiver.shared, count: handlers.count)
        receiverBusy = .allocate(capacity: handlers.count)
        receiverBusy.initialize(repeating: false, count: handlers.count)
        self.link = link
        self.name = name
        self.applicationBox = ApplicationBox(value: application)
    }

    isolated deinit {
        handlerTable.deallocate()
        receivers.deinitialize(count: handlers.count).deallocate()
        receiverBusy.deallocate()
    }

    /// Makes a subscriber named `name` for `host` with `make` (the subscriber and its type's witnesses,
    /// by event index) and its vtables, which own it until `destroy`: an entry for each event the type
    /// handles, NULL for every other, as the header promises and as C plugins do; an extension vtable
    /// only for the families the type adopts a protocol of.
    package static func create(name: String, host: UnsafePointer<adh_host>,
                               make: (SubscriberContext) -> (subscriber: AnyObject, witnesses: [_EventWitness?]))
        -> UnsafePointer<adh_subscriber> {
        let link = HostLink(host)
        let (application, infoProblem) = link.application()
        let (options, optionsProblem) = link.options()
        let context = SubscriberContext(subscriberName: name, application: application, options: options, sink: link)
        for problem in [infoProblem, optionsProblem].compactMap({ $0 }) {
            context.log("\(name): \(problem); using {} instead", level: .warning)
        }
        let made = make(context)
        let instance = ExportedInstance(subscriber: made.subscriber, witnesses: made.witnesses, link: link, name: name,
                                        application: application)
        let vtable = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
        vtable.initialize(to: adh_subscriber())
        vtable.pointee.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
        vtable.pointee.instance = Unmanaged.passRetained(instance).toOpaque()
        vtable.pointee.destroy = { ExportedInstance.destroy($0) }
        vtable.pointee.get_extension = { ExportedInstance.extensionVTable($0, $1) }
        instance.extensions = EventFamily.all.map { family in
            let rows = instance.rows.filter { $0.family === family }
            guard family.extensionID != nil else {
                // The core family's entries are adh_subscriber's own.
                for row in rows { row.install(into: UnsafeMutableRawPointer(vtable)) }
                return nil
            }
            guard !rows.isEmpty else { return nil }
            let extensionVTable = family.makeVTable()
            for row in rows { row.install(into: extensionVTable) }
            return extensionVTable
        }
        return UnsafePointer(vtable)
    }

    /// `destroy`: cuts the host link, releases the instance and frees the vtables. [main-thread]
    nonisolated static func destroy(_ vtable: UnsafePointer<adh_subscriber>?) {
        guard let vtable, let instance = vtable.pointee.instance else { return }
        let unmanaged = Unmanaged<ExportedInstance>.fromOpaque(instance)
        MainActor.assumeIsolated {
            let box = unmanaged.takeUnretainedValue()
            box.link.close()
            box.kept = nil
            for (family, extensionVTable) in zip(EventFamily.all, box.extensions) {
                if let extensionVTable { family.freeVTable(extensionVTable) }
            }
        }
        unmanaged.release()
        UnsafeMutablePointer(mutating: vtable).deinitialize(count: 1).deallocate()
    }

    /// `get_extension`: the vtable of the family whose id is `id`, when the subscriber is in it;
    /// NULL for any other id. [main-thread]
    nonisolated static func extensionVTable(_ vtable: UnsafePointer<adh_subscriber>?,
                                            _ id: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
        guard let id, let raw = vtable?.pointee.instance else { return nil }
        let instance = Unmanaged<ExportedInstance>.fromOpaque(raw)
        let wanted = UncheckedSendable(id)
        return MainActor.assumeIsolated {
            instance._withUnsafeGuaranteedRef { instance -> UncheckedSendable<UnsafeRawPointer?> in
                for family in EventFamily.all {
                    guard let familyID = family.extensionID, strcmp(familyID, wanted.value) == 0 else { continue }
                    return UncheckedSendable(instance.extensions[family.index].map(UnsafeRawPointer.init))
                }
                return UncheckedSendable(nil)
            }
        }.value
    }

    /// The handler of `event`; nil when the subscriber's type does not handle it.
    @inline(__always)
    func handler(_ event: LifecycleEvent) -> AnyEventHandler? { handlers[event.index] }

    /// Logs one warning about this instance's input through the host.
    func warn(_ message: String) {
        link.log(subscriber: name, level: .warning, message: "\(name): \(message)")
    }

    /// Brings the application up to date before a call: its state as the host says, and what the
    /// call's C arguments tell (how the app was launched).
    @inline(__always)
    func refresh<A: ArgumentShape>(from arguments: A.CArguments, _: A.Type) {
        let state = link.applicationState()
        if A.updatesApplication || A.readsLaunchInvocation || (state != nil && state != applicationBox.value.applicationState) {
            var application = applicationBox.value
            if let state { application.applicationState = state }
            A.update(&application, from: arguments)
            if A.readsLaunchInvocation, let invocation = link.launchInvocation() { application.launchInvocation = invocation }
            self.application = application
        }
    }

    /// The call of `event` with C `arguments` on the instance behind `vtable`: brings the application
    /// up to date, decodes the arguments (once per payload serial for every instance of this image),
    /// and runs `body` with the instance, the event's handler, the subscriber, the application and the
    /// decoded value — all borrowed, none retained or copied: the vtable holds the instance until
    /// `destroy`, and the host makes one call at a time, so nothing replaces them while `body` runs.
    /// `fallback` when there is no instance, no handler (a vtable used after `destroy`) or no value.
    @inline(__always)
    static func call<A: ArgumentShape, R>(
        _ vtable: UnsafePointer<adh_subscriber>?, _ arguments: A.CArguments, _ event: EventIndex, _: A.Type,
        fallback: R, _ body: (ExportedInstance, AnyEventHandler, AnyObject, Application, A.Value) -> R
    ) -> R {
        guard let raw = vtable?.pointee.instance else { return fallback }
        return borrowing(Unmanaged<ExportedInstance>.fromOpaque(raw)) { instance in
            instance.refresh(from: arguments, A.self)
            guard let handler = instance.handlerTable[event.rawValue] else { return fallback }
            return instance.decodeCache.withValue(arguments, event.rawValue, A.self, for: instance, fallback: fallback) { value in
                borrowing(handler) { handler in
                    borrowing(instance.unretainedSubscriber) { subscriber in
                        borrowing(Unmanaged.passUnretained(instance.applicationBox)) { box in
                            body(instance, handler, subscriber, box.value, value)
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` with the completion receiver for a call of `event`, borrowed: the last one, when
    /// nothing but this instance references it any more (the subscriber kept no handler), else a new
    /// one from `make`, kept for the next call. Not retained for the call: the instance's slot owns
    /// it, and nothing replaces it meanwhile — a call of the same event made from inside this one (a
    /// nested dispatch) finds it busy and runs with a new receiver of its own, not kept.
    @inline(__always)
    func withReceiver<Receiver: AnyObject, Result>(_ event: EventIndex, _: Receiver.Type, make: () -> Receiver,
                                                   _ body: (Receiver) -> Result) -> Result {
        let index = event.rawValue
        guard !receiverBusy[index] else { return body(make()) }
        let slot = receivers + index
        if !isKnownUniquelyReferenced(&slot.pointee) { slot.pointee = make() }
        receiverBusy[index] = true
        defer { receiverBusy[index] = false }
        // The slot's reference, read as its bits: no retain.
        return borrowing(Unmanaged<Receiver>.fromOpaque(UnsafeRawPointer(slot).load(as: UnsafeRawPointer.self)), body)
    }

    /// Runs `body` with the instance behind `vtable`, borrowed; `fallback` for a NULL vtable.
    static func withInstance<R>(_ vtable: UnsafePointer<adh_subscriber>?, fallback: R,
                                _ body: (ExportedInstance) -> R) -> R {
        guard let raw = vtable?.pointee.instance else { return fallback }
        return borrowing(Unmanaged<ExportedInstance>.fromOpaque(raw), body)
    }
}

/// What an event's receiver slot holds before its first call: shared by every slot, so never
/// uniquely referenced, so never taken for a receiver.
private final class NoReceiver: Sendable {
    static let shared = NoReceiver()
}

/// An application that never changes: a new value gets a new box.
final class ApplicationBox {
    let value: Application
    init(value: Application) { self.value = value }
}
