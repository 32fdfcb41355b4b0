#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the CLI writes text: standard output, standard error, the log file, or (in tests) a buffer.
///
/// Writes to a file descriptor that is not a terminal are buffered: one write(2) per line cost
/// `apphost --json` about 12 % of its time in the kernel. The buffer is written out once it passes
/// ``bufferLimit``, before a streamed event script blocks waiting for its next line
/// (``flushPending()``: a reader of the output sees each event as soon as it is played), and when
/// the command finishes. Outputs that go to the same file (`2>&1`: the same device and inode) keep
/// the order they were written in, as if unbuffered: a write to one first writes out what the
/// others hold. The null device has no reader to see an order. A terminal gets every write at once.
///
/// The first write that fails is kept (``failure``) and every later write is skipped: the command
/// checks it and turns it into one line and exit status 2, never silence (a closed pipe excepted,
/// see ``WriteFailure``). A buffered write's failure shows once its bytes are written out (the run
/// writes everything out before its first event, so an unwritable output stops it before anything
/// is played). A plugin that crashes the process does not take the events played before it with
/// it: ``CrashFlush`` writes out what the outputs hold on the way down.
package struct TextOutput: Sendable {
    /// How errors name this output: `standard output`, `--log-file run.jsonl`.
    package let name: String
    /// Whether the output is a terminal (decides colour).
    package let isTerminal: Bool
    /// The file descriptor written to; nil for a buffer.
    package let fileDescriptor: Int32?
    private let destination: Destination

    /// The most bytes an output holds before writing them out (64 KiB).
    package static let bufferLimit = 64 << 10

    /// An output that hands every write to `sink`, which never fails; `isTerminal` says what it
    /// pretends to be.
    package init(isTerminal: Bool = false, sink: @escaping @Sendable (String) -> Void) {
        self.name = "output"
        self.isTerminal = isTerminal
        self.fileDescriptor = nil
        self.destination = Destination(.sink(sink))
    }

    /// The process's standard output (file descriptor 1).
    package static let standardOutput = TextOutput(fileDescriptor: 1, name: "standard output")
    /// The process's standard error (file descriptor 2).
    package static let standardError = TextOutput(fileDescriptor: 2, name: "standard error")

    /// An output writing to the open file descriptor `fd`, named `name` in errors.
    package init(fileDescriptor fd: Int32, name: String) {
        self.name = name
        self.isTerminal = isatty(fd) == 1
        self.fileDescriptor = fd
        self.destination = Destination(.descriptor(fd, buffered: !isTerminal))
    }

    /// The first write that failed, or nil while every write succeeded (bytes still buffered
    /// count as written until ``flushPending()``).
    package var failure: WriteFailure? {
        destination.state.withLock { state in state.failure.map { WriteFailure(output: name, code: $0) } }
    }

    /// Writes `text` as is (nothing once a write has failed).
    package func write(_ text: String) {
        guard !text.isEmpty else { return }
        var text = text
        text.withUTF8 { destination.write($0) }
    }

    /// Writes the UTF-8 `bytes` as they are (nothing once a write has failed).
    package func write(bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { destination.write($0) }
    }

    /// Writes `text` and a newline.
    package func line(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes `text` as exactly one line, made safe for a terminal: control characters (newlines
    /// included) escaped, cut after ``TerminalText/lineLimit`` characters. For errors and log lines.
    package func singleLine(_ text: String) {
        write(TerminalText.line(text) + "\n")
    }

    /// Writes out the bytes every output still holds; a failure is kept in that output's ``failure``.
    package static func flushPending() {
        Destination.pending.withLock { pending in
            for destination in pending { destination.flush() }
            pending.removeAll()
        }
    }
}

/// Where one output's bytes go, and what it holds until they go; shared by every copy of the output.
private final class Destination: Sendable {
    enum Kind: Sendable {
        case descriptor(Int32, buffered: Bool)
        case sink(@Sendable (String) -> Void)
    }
    struct State {
        /// The `errno` of the first failed write.
        var failure: Int32?
    }
    /// The file written to, as device and inode: outputs with the same file keep their order. Nil
    /// for a sink and for the null device.
    struct File: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
    }
    let kind: Kind
    let file: File?
    let state = Mutex(State())
    /// What a buffered descriptor holds: ``TextOutput/bufferLimit`` bytes, allocated once and kept
    /// for the life of the process, so that ``CrashFlush`` can read it from a signal handler.
    private let held: CrashFlush.Slot?
    /// The outputs holding unwritten bytes (at most one per output: standard output, standard
    /// error, the log file).
    static let pending = Mutex<[Destination]>([])

    init(_ kind: Kind) {
        self.kind = kind
        if case .descriptor(let fd, true) = kind { held = CrashFlush.register(fd) } else { held = nil }
        guard case .descriptor(let fd, _) = kind else {
            file = nil
            return
        }
        var status = stat()
        var null = stat()
        guard fstat(fd, &status) == 0 else {
            file = nil
            return
        }
        let isNull = (status.st_mode & S_IFMT) == S_IFCHR && stat("/dev/null", &null) == 0 && null.st_rdev == status.st_rdev
        file = isNull ? nil : File(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        // A sink shares no file with anything: called outside the lock, it may write elsewhere.
        guard case .descriptor(let fd, let buffered) = kind else {
            if case .sink(let sink) = kind { sink(String(decoding: bytes, as: UTF8.self)) }
            return
        }
        Destination.pending.withLock { pending in
            // What other outputs hold for the same file was written first: it goes first.
            if let file, pending.contains(where: { $0 !== self && $0.file == file }) {
                for other in pending where other !== self && other.file == file { other.flush() }
                pending.removeAll { $0 !== self && $0.file == file }
            }
            state.withLock { state in
                guard state.failure == nil else { return }
                if buffered, let held, held.count + bytes.count <= TextOutput.bufferLimit {
                    if held.count == 0 { pending.append(self) }
                    held.append(bytes)
                    return
                }
                state.failure = held.flatMap { writeAll($0.bytes, to: fd) } ?? writeAll(bytes, to: fd)
                held?.empty()
                pending.removeAll { $0 === self }
            }
        }
    }

    /// Writes out the buffer.
    func flush() {
        guard case .descriptor(let fd, _) = kind else { return }
        state.withLock { state in
            guard let held, held.count > 0 else { return }
            if state.failure == nil { state.failure = writeAll(held.bytes, to: fd) }
            held.empty()
        }
    }
}

/// A write to an output that failed: `standard output: write failed: No space left on device`.
///
/// A closed pipe (`apphost … | head -1`, `EPIPE`; SIGPIPE is ignored) is a failure too, but the
/// reader chose to stop reading: commands stop writing and end quietly with the status they
/// would have had (``isClosedPipe``).
package struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the output is named: `standard output`, `--log-file run.jsonl`.
    package var output: String
    /// The `errno` of the failed write.
    package var code: Int32

    /// Whether the reader went away (`EPIPE`): not reported, the command just stops writing.
    package var isClosedPipe: Bool { code == EPIPE }

    /// `standard output: write failed: No space left on device`.
    package var description: String { "\(output): write failed: \(String(cString: strerror(code)))" }
}

/// Writes every byte of `bytes` to `fd`, retrying after interruptions and short writes; returns the
/// `errno` of a write that failed, nil when everything was written. Async-signal-safe.
private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            // A write of 0 bytes to a non-empty request makes no progress: treat it as full.
            return written < 0 ? errno : ENOSPC
        }
    }
    return nil
}

/// Writes out what the buffered outputs hold when the process is killed by a fatal signal (a
/// plugin's crash: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT), then hands the signal on to
/// whatever handled it before (the Swift runtime's backtracer, or the default). The handler touches
/// only plain memory and write(2): each output's bytes live in a fixed block (``Slot``) registered
/// once. The main thread fills the blocks; a plugin crashing on its own thread while the main thread
/// is in the middle of a write may show that write's bytes twice or cut — better than losing them.
enum CrashFlush {
    /// One buffered output's bytes: a fixed block and how much of it is used.
    struct Slot: @unchecked Sendable {  // its bytes are changed under the output's lock only
        let fd: Int32
        let base: UnsafeMutablePointer<UInt8>
        let used: UnsafeMutablePointer<Int>

        var count: Int { used.pointee }
        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used.pointee) }

        func append(_ more: UnsafeBufferPointer<UInt8>) {
            guard let source = more.baseAddress else { return }
            (base + used.pointee).update(from: source, count: more.count)
            used.pointee += more.count
        }

        func empty() { used.pointee = 0 }
    }

    /// At most this many buffered outputs (standard output, standard error, the log file, spares).
    private static let capacity = 8
    private nonisolated(unsafe) static let table = UnsafeMutablePointer<Slot?>.allocate(capacity: capacity)
    private nonisolated(unsafe) static var registered = 0
    private static let lock = Mutex(())

    /// A block for `fd`'s output, and the signal handlers installed on first use; nil when the table
    /// is full (the output then writes unbuffered).
    static func register(_ fd: Int32) -> Slot? {
        lock.withLock { _ in
            guard registered < capacity else { return nil }
            if registered == 0 { installHandlers() }
            let slot = Slot(fd: fd, base: .allocate(capacity: TextOutput.bufferLimit),
                            used: { let used = UnsafeMutablePointer<Int>.allocate(capacity: 1); used.initialize(to: 0); return used }())
            (table + registered).initialize(to: slot)
            registered += 1
            return slot
        }
    }

    /// The actions in place before ours (the Swift runtime's backtracer, or the default), by signal
    /// number: ours hands each signal on to them.
    private nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 64)

    private static func installHandlers() {
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                // The previous action first: a fault while writing out goes to it, not back here.
                sigaction(signal, CrashFlush.previous + Int(signal), nil)
                CrashFlush.writeOut()
                // A fault returns to the faulting instruction, which faults again into the previous
                // handler with its own address and context (the backtrace stays the plugin's);
                // abort(3) and a trap do not fault again, so they are raised anew.
                if signal == SIGABRT || signal == SIGTRAP { raise(signal) }
            }
            sigemptyset(&action.sa_mask)
            // On the alternate stack when there is one (the Swift runtime's backtracer sets one up):
            // a stack overflow leaves no stack to run on.
            action.sa_flags = Int32(truncatingIfNeeded: SA_ONSTACK)
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Writes every registered block's bytes to its descriptor. Async-signal-safe.
    private static func writeOut() {
        for index in 0..<min(registered, capacity) {
            guard let slot = table[index], slot.count > 0 else { continue }
            _ = writeAll(slot.bytes, to: slot.fd)
            slot.empty()
        }
    }
}
