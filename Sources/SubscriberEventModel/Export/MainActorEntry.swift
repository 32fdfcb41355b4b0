#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import SubscriberValues

/// Runs the Swift half of a `[main-thread]` C entry on the main actor, cheaply.
///
/// `MainActor.assumeIsolated` checks the current executor and, for a closure that captures, boxes
/// its context on the heap (`withoutActuallyEscaping`): together several times the cost of a whole
/// void event. So the first entry call on a thread goes through `assumeIsolated` (which traps off
/// the main actor, as before); once it passed, that thread is known to be the main actor's (on
/// Linux the main actor runs on the main thread, which lives as long as the process) and later
/// calls on it only compare `pthread_self()`.
///
/// `body` must not capture (pass what it needs as `arguments`): a capture-free closure is a plain
/// function pointer, so no call allocates.
enum MainActorEntry {
    /// `pthread_self()` of the thread where `assumeIsolated` last passed; 0 before the first call.
    private static let verifiedThread = Atomic<UInt>(0)

    ///
    /// The check is a compare, and the first call's path is a function of its own: inlined, it made
    /// every entry set up the stack frame that `assumeIsolated` needs (callgrind: 14 instructions a
    /// call, of a void call's 158).
    @inline(__always)
    static func run<Arguments, Result>(_ arguments: Arguments,
                                       _ body: @escaping @MainActor (Arguments) -> Result) -> Result {
        if verifiedThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            // Same representation: only the isolation differs, and it was checked on this thread.
            return unsafeBitCast(body, to: ((Arguments) -> Result).self)(arguments)
        }
        return firstOnThread(arguments, body)
    }

    /// The first call on a thread: checked by `assumeIsolated` (which traps off the main actor).
    @inline(never)
    private static func firstOnThread<Arguments, Result>(_ arguments: Arguments,
                                                         _ body: @escaping @MainActor (Arguments) -> Result) -> Result {
        let thread = UInt(pthread_self())
        let arguments = UncheckedSendable(arguments)
        let result = MainActor.assumeIsolated { UncheckedSendable(body(arguments.value)) }.value
        verifiedThread.store(thread, ordering: .relaxed)
        return result
    }
}

/// Carries a value the compiler cannot prove Sendable (a C pointer) out of a main-actor closure
/// that runs synchronously on the calling thread.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
