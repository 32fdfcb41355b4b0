import SubscriberABI

/// One exported subscriber instance: what an `adh_subscriber`'s `instance` points to (retained).
/// Holds the subscriber, the `Application` value every event receives, and the bytes of the last
/// configuration name, which must stay valid until the next call or `destroy`.
@MainActor
final class ExportedInstance {
    /// The plugin author's subscriber.
    let subscriber: any AppDelegateSubscriber
    /// Its handler of each event, by event index; nil for the events its type does not handle
    /// (their vtable entries are NULL).
    let handlers: [EventHandler?]
    /// The host link behind the subscriber's context.
    let link: HostLink
    /// The name the subscriber was created under.
    let name: String
    /// The application passed to every event; launch events set its `launchInvocation`.
    /// Kept in an immutable box that events borrow (``with(_:fallback:_:)``): a copy would retain
    /// and release its strings on every call, which cost more than the rest of a void event's
    /// trampoline.
    var application: Application {
        get { applicationBox.value }
        set { applicationBox = ApplicationBox(value: newValue) }
    }
    private(set) var applicationBox: ApplicationBox
    /// The answer of the last `configuration_for_connecting` call, kept alive for the host.
    var configuration: ABIBytes?

    private init(subscriber: any AppDelegateSubscriber, link: HostLink, name: String, application: Application) {
        self.subscriber = subscriber
        self.handlers = subscriber.eventHandlers()
        self.link = link
        self.name = name
        self.applicationBox = ApplicationBox(value: application)
    }

    /// Makes a `type` named `name` for `host` and its vtable, which owns it until `destroy`.
    static func create(_ type: any InstantiableSubscriber.Type, name: String,
                       host: UnsafePointer<adh_host>) -> UnsafePointer<adh_subscriber> {
        let link = HostLink(host)
        let (info, infoProblem) = link.applicationInfo()
        let (options, optionsProblem) = link.options()
        let application = Application(infoJSON: info)
        let context = SubscriberContext(subscriberName: name, application: application, options: options, sink: link)
        for problem in [infoProblem, optionsProblem].compactMap({ $0 }) {
            context.log("\(name): \(problem); using {} instead", level: .warning)
        }
        let instance = ExportedInstance(subscriber: type.init(context: context), link: link, name: name,
                                        application: application)
        let vtable = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
        vtable.initialize(to: SubscriberVTable.make(instance: Unmanaged.passRetained(instance).toOpaque(),
                                                     handlers: instance.handlers))
        return UnsafePointer(vtable)
    }

    /// `destroy`: cuts the host link, releases the instance and frees the vtable. [main-thread]
    nonisolated static func destroy(_ vtable: UnsafePointer<adh_subscriber>?) {
        guard let vtable, let instance = vtable.pointee.instance else { return }
        let unmanaged = Unmanaged<ExportedInstance>.fromOpaque(instance)
        MainActor.assumeIsolated {
            let box = unmanaged.takeUnretainedValue()
            box.link.close()
            box.configuration = nil
        }
        unmanaged.release()
        UnsafeMutablePointer(mutating: vtable).deinitialize(count: 1).deallocate()
    }

    /// The handler of `event`; nil when the subscriber's type does not handle it.
    @inline(__always)
    func handler(_ event: LifecycleEvent) -> EventHandler? { handlers[event.index] }

    /// Logs one warning about this instance's input through the host.
    func warn(_ message: String) {
        link.log(subscriber: name, level: .warning, message: "\(name): \(message)")
    }

    /// Runs `body` with the instance behind `vtable` and its application; `fallback` for a NULL
    /// vtable. Both are borrowed, not retained or copied: the vtable holds the instance until
    /// `destroy`, and the host makes one call at a time, so nothing replaces the application box
    /// while `body` runs. `body` must not set ``application`` (launch entries use
    /// ``withInstance(_:fallback:_:)``).
    static func with<R>(_ vtable: UnsafePointer<adh_subscriber>?, fallback: R,
                        _ body: (ExportedInstance, Application) -> R) -> R {
        withInstance(vtable, fallback: fallback) { instance in
            borrowing(Unmanaged.passUnretained(instance.applicationBox)) { body(instance, $0.value) }
        }
    }

    /// Runs `body` with the instance behind `vtable`, borrowed; `fallback` for a NULL vtable.
    static func withInstance<R>(_ vtable: UnsafePointer<adh_subscriber>?, fallback: R,
                                _ body: (ExportedInstance) -> R) -> R {
        guard let raw = vtable?.pointee.instance else { return fallback }
        return borrowing(Unmanaged<ExportedInstance>.fromOpaque(raw), body)
    }
}

/// An application that never changes: a new value gets a new box.
final class ApplicationBox {
    let value: Application
    init(value: Application) { self.value = value }
}

/// `object` borrowed for `body`, without a retain. A wrapper compiled in Swift 6 mode: a main-actor
/// closure handed straight to the stdlib's `_withUnsafeGuaranteedRef` (a Swift 5 module) would
/// check its executor on every call.
@inline(__always)
private func borrowing<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    object._withUnsafeGuaranteedRef(body)
}
