import SubscriberABI

/// One responder of one event as the call path sees it: a loaded plugin's C entry and subscriber
/// struct, called directly; or an in-process subscriber and its handler. The dispatcher makes one
/// list of them per event when its subscribers change, in call order, so a dispatch touches neither
/// the subscribers' objects nor their names.
///
/// Nothing here is retained: the dispatcher's registrations own the subscribers, their handlers and
/// their C structs for as long as a list of theirs is in use.
package struct Responder {
    package enum Target {
        /// A C vtable entry (the event's function pointer, as a raw pointer) and the `self` to pass.
        case loaded(entry: UnsafeRawPointer, subscriber: UnsafePointer<adh_subscriber>)
        /// An in-process subscriber object and its handler of the event.
        case inProcess(object: Unmanaged<AnyObject>, handler: Unmanaged<AnyEventHandler>)
    }

    package let target: Target
    /// The responder's position among the dispatcher's subscribers: how outcomes name it.
    package let subscriber: Int

    package init(_ target: Target, subscriber: Int) {
        self.target = target
        self.subscriber = subscriber
    }
}

/// The responders of one event, in call order.
package struct ResponderList {
    package let responders: [Responder]
    /// Each responder's position among the dispatcher's subscribers, in call order (what outcomes
    /// name them by): made once here, not per event.
    package let subscribers: [Int]
    /// Whether any responder is loaded: then the event's arguments are encoded for C, once.
    package let hasLoaded: Bool

    package init(_ responders: [Responder]) {
        self.responders = responders
        subscribers = responders.map(\.subscriber)
        hasLoaded = responders.contains { if case .loaded = $0.target { true } else { false } }
    }

    package static var empty: ResponderList { ResponderList([]) }
}

/// `object` borrowed for `body`, without a retain: how the call path reaches in-process subscribers,
/// their handlers and exported instances. A wrapper compiled in Swift 6 mode: a main-actor closure
/// handed straight to the stdlib's `_withUnsafeGuaranteedRef` (a Swift 5 module) checks its executor
/// on every call (callgrind: about 250 instructions per subscriber, more than the whole call).
@inline(__always)
package func borrowing<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    object._withUnsafeGuaranteedRef(body)
}
