// The one fast path of the event table: an event's row index without a lookup.

extension LifecycleEvent {
    /// This event's position in `LifecycleEvent.allCases` and in ``EventTable/rows``.
    ///
    /// A Swift enum without payloads stores its case's declaration index in one byte; reading it is
    /// what a `switch` would compile to, without 29 arms to keep in step. A test checks every case.
    @inline(__always)
    package var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
