import SubscriberABI

/// One exported subscriber instance: what an `adh_subscriber`'s `instance` points to (retained).
/// Holds the subscriber, the `Application` value every event receives, and the bytes of the last
/// configuration name, which must stay valid until the next call or `destroy`.
@MainActor
final class ExportedInstance {
    /// The plugin author's subscriber.
    let subscriber: any AppDelegateSubscriber
    /// The host link behind the subscriber's context.
    let link: HostLink
    /// The name the subscriber was created under.
    let name: String
    /// The application passed to every event; launch events set its `launchInvocation`.
    var application: Application
    /// The answer of the last `configuration_for_connecting` call, kept alive for the host.
    var configuration: ABIBytes?

    private init(subscriber: any AppDelegateSubscriber, link: HostLink, name: String, application: Application) {
        self.subscriber = subscriber
        self.link = link
        self.name = name
        self.application = application
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
        vtable.initialize(to: SubscriberVTable.make(instance: Unmanaged.passRetained(instance).toOpaque()))
        return UnsafePointer(vtable)
    }

    /// The instance behind `vtable`; nil for a NULL pointer.
    nonisolated static func from(_ vtable: UnsafePointer<adh_subscriber>?) -> ExportedInstance? {
        guard let instance = vtable?.pointee.instance else { return nil }
        return Unmanaged<ExportedInstance>.fromOpaque(instance).takeUnretainedValue()
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

    /// Logs one warning about this instance's input through the host.
    func warn(_ message: String) {
        link.log(subscriber: name, level: .warning, message: "\(name): \(message)")
    }

    /// Runs `body` with the instance behind `vtable` on the main actor; `fallback` for a NULL one.
    /// [main-thread] The host calls every entry on its main thread.
    nonisolated static func with<R>(_ vtable: UnsafePointer<adh_subscriber>?, fallback: R,
                                    _ body: @MainActor (ExportedInstance) -> R) -> R {
        guard let instance = from(vtable) else { return fallback }
        return MainActor.assumeIsolated { UncheckedSendable(body(instance)) }.value
    }
}
