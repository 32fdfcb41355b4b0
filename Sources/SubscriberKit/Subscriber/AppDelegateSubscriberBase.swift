import Foundation
import SubscriberEventModel
import SubscriberValues

/// A base class for subscribers, Q2's `Q2ModuleBase` style: it keeps the context and forwards `log`,
/// `logEvent` and `logError` to it. A subclass declares ``InstantiableSubscriber`` and the event
/// protocols it responds to, and implements their methods (no `override`: the base has none):
///
/// ```swift
/// final class AppLifecycleDelegate: AppDelegateSubscriberBase, InstantiableSubscriber,
///                                   DidBecomeActiveSubscriber {
///     func applicationDidBecomeActive(_ application: Application) {
///         log("The app has become active.")
///     }
/// }
/// ```
///
/// The base class itself conforms to no subscriber protocol on purpose: the compiler records which
/// events a type responds to where it declares the conformance, so the subclass must declare it.
@MainActor
open class AppDelegateSubscriberBase {
    /// Logging, app info and this subscriber's manifest options.
    public let context: SubscriberContext

    /// Keeps `context`. Override to read options; call `super.init(context:)`.
    public required init(context: SubscriberContext) {
        self.context = context
    }

    /// The subscriber's name: the class name, unless overridden.
    open class var subscriberName: String { SubscriberTypeName.of(self) }

    /// Writes one log line through the host.
    public func log(_ message: String, level: LogLevel = .info) { context.log(message, level: level) }
    /// Records an analytics event through the host.
    public func logEvent(_ name: String, attributes: JSONObject = [:]) { context.logEvent(name, attributes: attributes) }
    /// Records an error through the host.
    public func logError(_ message: String, attributes: JSONObject = [:]) { context.logError(message, attributes: attributes) }
}
