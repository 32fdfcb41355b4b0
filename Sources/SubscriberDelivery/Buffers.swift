/// `array`'s elements as a buffer for `body`: how the call paths loop over responders and answer
/// slots. Wrappers compiled in Swift 6 mode, as ``borrowing(_:_:)`` is: a main-actor closure handed
/// straight to the stdlib's `withUnsafeBufferPointer` (a Swift 5 module) checks its executor on
/// every call (`swift_task_isCurrentExecutor`, `MainActor.shared`, `unownedExecutor`: about 110
/// instructions a closure, 2 or 3 an event on every call path).
@inline(__always)
func withElements<Element, Result>(of array: [Element], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
    array.withUnsafeBufferPointer(body)
}

/// `array`'s elements as a mutable buffer for `body` (``withElements(of:_:)``).
@inline(__always)
func withMutableElements<Element, Result>(of array: inout [Element], _ body: (UnsafeMutableBufferPointer<Element>) -> Result)
    -> Result
{
    array.withUnsafeMutableBufferPointer { body($0) }
}

/// Keeps `value` alive up to this call (`withExtendedLifetime`, whose closure, handed to it from
/// the main actor, checked its executor as ``withElements(of:_:)``'s do not: once an event).
@inline(__always)
func keepAlive<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
