#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Alternate signal stacks for every thread the process can see at the start of each event, so
/// that a stack overflow on a plugin's own thread still runs the crash handler (``Survival``): a
/// signal handler needs a stack, and an overflow leaves none.
///
/// An alternate stack is per thread and only the thread itself can set one (sigaltstack), and
/// Linux offers no hook when a thread starts. So at each event the main thread lists
/// `/proc/self/task`, and sends each thread it has not seen yet a real-time signal whose handler,
/// running on that thread, takes a stack from a pool prepared beforehand and installs it — unless
/// the thread has one already (the Swift runtime gives the main thread one). A thread that has
/// gone gives its stack back. What this cannot reach (docs/cli.md): a thread started and
/// overflowing within the same event, threads that block the signal (libdispatch's worker threads
/// block nearly every signal), and a thread id reused between two events. The signal interrupts
/// what the thread was doing once; calls are restarted (SA_RESTART), but `sleep`-like calls return
/// early with `EINTR`, as for any signal.
enum ThreadAltStacks {
    /// The size of each alternate stack (64 KiB, plus a guard page below it).
    static let stackSize = 64 << 10
    /// The most threads given a stack at once.
    static let capacity = 1_024

    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// The pool: each stack's lowest usable byte, and the thread using it (0: free).
    private nonisolated(unsafe) static let stacks = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: capacity)
    private nonisolated(unsafe) static let owners = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: capacity)
    /// How many pool entries have their memory.
    private static let prepared = Atomic<Int>(0)
    /// The threads already sent the signal (main thread only).
    private static let seen = Mutex<Set<Int32>>([])

    private typealias GetTID = @convention(c) () -> pid_t
    private typealias TGKill = @convention(c) (pid_t, pid_t, Int32) -> Int32
    // glibc's gettid and tgkill, found at run time: the Glibc module does not export them.
    private nonisolated(unsafe) static var gettid: GetTID?
    private nonisolated(unsafe) static var tgkill: TGKill?
    /// The real-time signal that asks a thread to install a stack (0 until ``install()``).
    private(set) nonisolated(unsafe) static var signalNumber: Int32 = 0

    /// Installs the signal's handler and gives the calling thread a stack if it has none.
    static func install() {
        let library = UnsafeMutableRawPointer(bitPattern: 0)
        guard let gettidSymbol = dlsym(library, "gettid"), let tgkillSymbol = dlsym(library, "tgkill") else { return }
        gettid = unsafeBitCast(gettidSymbol, to: GetTID.self)
        tgkill = unsafeBitCast(tgkillSymbol, to: TGKill.self)
        for index in 0..<capacity { (owners + index).initialize(to: Atomic(0)) }
        // One the C library, the Swift runtime and libdispatch leave alone (they use none above SIGRTMIN + 2).
        signalNumber = __libc_current_sigrtmax() - 3
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, _, context in ThreadAltStacks.installOnThisThread(context) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(truncatingIfNeeded: SA_SIGINFO | SA_RESTART)
        sigaction(signalNumber, &action, nil)
        prepare(atLeast: 8)
        installOnThisThread(nil)
        let main = gettid?() ?? 0
        seen.withLock { _ = $0.insert(main) }
    }

    /// Sends every thread not seen before the signal, and takes back the stacks of threads that are
    /// gone. On the main thread, before each event.
    static func coverNewThreads() {
        guard let tgkill, signalNumber != 0 else { return }
        let threads = currentThreads()
        guard !threads.isEmpty else { return }
        let process = getpid()
        seen.withLock { seen in
            let gone = seen.subtracting(threads)
            if !gone.isEmpty {
                seen.subtract(gone)
                for index in 0..<prepared.load(ordering: .acquiring) where gone.contains(owners[index].load(ordering: .acquiring)) {
                    owners[index].store(0, ordering: .releasing)
                }
            }
            let new = threads.subtracting(seen)
            guard !new.isEmpty else { return }
            prepare(atLeast: new.count)
            for thread in new {
                seen.insert(thread)
                _ = tgkill(process, thread, signalNumber)
            }
        }
    }

    /// Makes sure at least `count` pool entries are free and have memory (or the pool is full).
    private static func prepare(atLeast count: Int) {
        var free = 0
        let ready = prepared.load(ordering: .acquiring)
        for index in 0..<ready where owners[index].load(ordering: .acquiring) == 0 { free += 1 }
        var next = ready
        while free < count && next < capacity {
            // A guard page below the stack: an overflow of the alternate stack faults instead of
            // writing over whatever lies below.
            guard let memory = mmap(nil, stackSize + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                  memory != MAP_FAILED else { break }
            _ = mprotect(memory, page, PROT_NONE)
            stacks[next] = memory + page
            next += 1
            free += 1
        }
        prepared.store(next, ordering: .releasing)
    }

    /// Installs a free pool stack as the calling thread's alternate stack, unless it has one.
    /// Async-signal-safe. In the signal's handler (`context` given) the stack is written into the
    /// context the handler returns through: returning from a handler restores the alternate stack
    /// that was in place when the signal arrived, which would undo a sigaltstack call made here.
    private static func installOnThisThread(_ context: UnsafeMutableRawPointer?) {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0, let gettid else { return }
        let thread = gettid()
        for index in 0..<prepared.load(ordering: .acquiring)
        where owners[index].compareExchange(expected: 0, desired: thread, ordering: .acquiringAndReleasing).exchanged {
            let stack = stack_t(ss_sp: stacks[index], ss_flags: 0, ss_size: stackSize)
            if let context {
                context.assumingMemoryBound(to: ucontext_t.self).pointee.uc_stack = stack
            } else {
                var stack = stack
                if sigaltstack(&stack, nil) != 0 { owners[index].store(0, ordering: .releasing) }
            }
            return
        }
    }

    /// The ids of the process's threads, from `/proc/self/task`; empty when it cannot be read.
    private static func currentThreads() -> Set<Int32> {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var threads = Set<Int32>()
        while let entry = readdir(directory) {
            let id = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32 in
                var value: Int32 = 0
                for byte in name {
                    guard byte != 0 else { break }
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return 0 }
                    value = value * 10 + Int32(byte - UInt8(ascii: "0"))
                }
                return value
            }
            if id > 0 { threads.insert(id) }
        }
        return threads
    }
}
