import SubscriberValues
/// `object` borrowed for `body`, without a retain: how the call path reaches in-process subscribers,
/// their handlers and exported instances. A wrapper compiled in Swift 6 mode: a main-actor closure
/// handed straight to the stdlib's `_withUnsafeGuaranteedRef` (a Swift 5 module) checks its executor
/// on every call (callgrind: about 250 instructions per subscriber, more than the whole call).
@inline(__always)
package func borrowing<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    object._withUnsafeGuaranteedRef(body)
}
