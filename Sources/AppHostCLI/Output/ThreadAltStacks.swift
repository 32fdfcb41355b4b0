#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Alternate signal stacks for the threads apphost itself runs on, so that a stack overflow there
/// still runs the crash handler (``Survival``): a signal handler needs a stack, and an overflow
/// leaves none.
///
/// An alternate stack is per thread and only the thread itself can set one (sigaltstack). The host
/// gives one to its own threads (the main thread, unless the Swift runtime gave it one, and the
/// threads ``Survival`` starts) and never to a thread a plugin started: reaching another thread
/// would take a signal, and a signal changes what that thread's system calls do (a `usleep`, `poll`
/// or `read` returns early with `EINTR`). A stack overflow on a plugin's own thread therefore ends
/// the process at once, as the kernel does it (docs/cli.md, "When a run is cut short").
enum ThreadAltStacks {
    /// The size of each alternate stack (64 KiB, plus a guard page below it).
    static let stackSize = 64 << 10

    /// Gives the calling thread an alternate signal stack, unless it has one. Called by each thread
    /// of apphost's own as it starts, never from a handler.
    static func installOnThisThread() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // A guard page below the stack: an overflow of the alternate stack faults instead of
        // writing over whatever lies below. Kept for the life of the thread (these live as long as
        // the process).
        guard let memory = mmap(nil, stackSize + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { return }
        _ = mprotect(memory, page, PROT_NONE)
        var stack = stack_t(ss_sp: memory + page, ss_flags: 0, ss_size: stackSize)
        if sigaltstack(&stack, nil) != 0 { _ = munmap(memory, stackSize + page) }
    }
}
