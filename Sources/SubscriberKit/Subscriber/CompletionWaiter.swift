/// Host side of ``CompletionHandler``: what waits for a set of handlers' calls (one per slot) and
/// may stop waiting for some, e.g. at an event's deadline. Whoever forwards a handler elsewhere
/// registers a cleanup through ``CompletionHandler/onAbandon(_:)``, so that a subscriber that never
/// calls does not keep what was made for its call alive forever.
package protocol CompletionWaiter: AnyObject, Sendable {
    /// Runs `cleanup` once when this waiter stops waiting for handler `slot` before its call (at once
    /// if it already has); drops it if the handler is called or declined first. [any-thread]
    func onAbandon(slot: Int, _ cleanup: @escaping @Sendable () -> Void)
}
