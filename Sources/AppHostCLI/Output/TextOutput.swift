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
/// (``flushPending()``: a reader of the output sees each event as soon as it is played), during a
/// run at least every ``Survival/writeOutInterval`` (so a run killed without warning loses at most
/// that much), and when the command finishes. Outputs that go to the same file (`2>&1`: the same device and inode) keep
/// the order they were written in, as if unbuffered: a write to one first writes out what the
/// others hold. The null device has no reader to see an order. A terminal gets every write at once.
///
/// The first write that fails is kept (``failure``) and every later write is skipped: the command
/// checks it and turns it into one line and exit status 2, never silence (a closed pipe excepted,
/// see ``WriteFailure``). A buffered write's failure shows once its bytes are written out (the run
/// writes everything out before its first event, so an unwritable output stops it before anything
/// is played). A plugin that ends the process (a crash, `exit()`) or a signal that stops it does
/// not take the events played before it along: ``Survival`` writes out what the outputs hold on
/// the way down. A full non-blocking output is waited for (``OutputWrite``), not a failure.
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

    /// The process's standard output, through apphost's own copy of descriptor 1
    /// (``StandardDescriptors/output``): a plugin that redirects descriptor 1 does not move it.
    package static let standardOutput = TextOutput(fileDescriptor: StandardDescriptors.output, name: "standard output")
    /// The process's standard error, through apphost's own copy of descriptor 2.
    package static let standardError = TextOutput(fileDescriptor: StandardDescriptors.error, name: "standard error")

    /// An output writing to the open file descriptor `fd`, named `name` in errors.
    package init(fileDescriptor fd: Int32, name: String) {
        self.name = name
        self.isTerminal = isatty(fd) == 1
        self.fileDescriptor = fd
        self.destination = Destination(.descriptor(fd, buffered: !isTerminal))
    }

    /// Whether writes are held in a buffer and written out later (a file or pipe that got one of the
    /// buffers signal handlers write out); false for a terminal, a sink, or when no buffer was left.
    package var isBuffered: Bool { destination.holdsWrites }

    /// The first write that failed, or nil while every write succeeded (bytes still buffered
    /// count as written until ``flushPending()``).
    package var failure: WriteFailure? {
        destination.failure.map { WriteFailure(output: name, code: $0) }
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

    /// Writes the UTF-8 `bytes` as they are (nothing once a write has failed).
    package func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        destination.write(bytes)
    }

    /// ``write(_:)-(UnsafeBufferPointer<UInt8>)`` for a caller that holds an output claim already
    /// (in ``Survival/writingAtOnce(_:)``, which takes one whenever claims are on): no second claim
    /// is taken (about 100 instructions a write).
    func writeInClaim(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        destination.write(bytes, inClaim: true)
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
        OutputClaims.withClaim {
            Destination.pending.withLock { pending in pending.removeAll { $0.flush() } }
        }
    }

    /// Writes out what the outputs hold unless another thread is writing: the write-out thread's,
    /// which never waits for a lock (one held by a thread stopped at the end of the process).
    static func flushPendingIfFree() {
        OutputClaims.withClaim {
            _ = Destination.pending.withLockIfAvailable { pending in pending.removeAll { $0.flush() } }
        }
    }
}

/// Where one output's bytes go, and what it holds until they go; shared by every copy of the output.
///
/// What it holds and its failure change under one lock, ``pending``'s, which a write takes anyway
/// (a lock of its own as well cost about 60 instructions a write); its failure is read without it.
private final class Destination: Sendable {
    enum Kind: Sendable {
        case descriptor(Int32, buffered: Bool)
        case sink(@Sendable (String) -> Void)
    }
    /// The file written to, as device and inode: outputs with the same file keep their order. Nil
    /// for a sink and for the null device.
    struct File: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
    }
    let kind: Kind
    let file: File?
    /// The `errno` of the first failed write; 0 while none failed. Set under ``pending``'s lock.
    private let failureCode = Atomic<Int32>(0)
    /// The `errno` of the first failed write, nil while every write succeeded.
    var failure: Int32? {
        let code = failureCode.load(ordering: .acquiring)
        return code == 0 ? nil : code
    }
    /// What a buffered descriptor holds: ``TextOutput/bufferLimit`` bytes, allocated once and kept
    /// for the life of the process, so that ``Survival`` can write it out from a signal handler.
    private let held: SignalSafeBuffer?
    var holdsWrites: Bool { held != nil }
    /// The outputs holding unwritten bytes (at most one per output: standard output, standard
    /// error, the log file).
    static let pending = Mutex<[Destination]>([])
    /// Whether two outputs made so far write to the same file (`2>&1`): only then does a write look
    /// through ``pending`` for another output's bytes to write first (about 30 instructions a
    /// write otherwise). Set under ``pending``'s lock, never unset.
    private nonisolated(unsafe) static var filesShared = false
    /// The files of the outputs made so far. Under ``pending``'s lock.
    private nonisolated(unsafe) static var filesSeen: [File] = []

    init(_ kind: Kind) {
        self.kind = kind
        if case .descriptor(let fd, true) = kind { held = Survival.registerBuffer(for: fd) } else { held = nil }
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
        if let file {
            Destination.pending.withLock { _ in
                if Destination.filesSeen.contains(file) { Destination.filesShared = true } else { Destination.filesSeen.append(file) }
            }
        }
    }

    /// Writes `bytes`, in an output claim of its own unless `inClaim` (the caller holds one).
    func write(_ bytes: UnsafeBufferPointer<UInt8>, inClaim: Bool = false) {
        // A sink shares no file with anything: called outside the lock, it may write elsewhere.
        guard case .descriptor(let fd, let buffered) = kind else {
            if case .sink(let sink) = kind { sink(String(decoding: bytes, as: UTF8.self)) }
            return
        }
        if inClaim {
            write(bytes, to: fd, buffered: buffered)
        } else {
            OutputClaims.withClaim { write(bytes, to: fd, buffered: buffered) }
        }
    }

    /// ``write(_:inClaim:)``'s work for a descriptor, in a claim.
    private func write(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32, buffered: Bool) {
        Destination.pending.withLock { pending in
            // What other outputs hold for the same file was written first: it goes first, even
            // what an event being written appended (the order on the file is the point).
            if Destination.filesShared, let file, pending.contains(where: { $0 !== self && $0.file == file }) {
                pending.removeAll { $0 !== self && $0.file == file && $0.flush(ignoringMark: true) }
            }
            guard failure == nil else { return }
            if buffered, let held {
                if held.count + bytes.count > held.capacity {
                    // Full: what it holds goes first, then these bytes are held in turn.
                    // What an event being written appended is held back until it is said
                    // written (``SignalSafeBuffer/mark()``), unless that alone fills it.
                    for attempt in 0..<2 where held.count + bytes.count > held.capacity {
                        if let failure = held.writeOut(to: fd, ignoringMark: attempt == 1) {
                            // Cut short as the process ends: the ending thread writes the rest.
                            guard failure != OutputWrite.cancelled else { return }
                            pending.removeAll { $0 === self }
                            fail(failure)
                            held.empty()
                            return
                        }
                    }
                    if held.count == 0 { pending.removeAll { $0 === self } }
                }
                if bytes.count <= held.capacity {
                    if held.count == 0 { pending.append(self) }
                    if held.append(bytes) != nil { return }
                    // No room made (room is made above; never drop them): what is held goes
                    // first, then these bytes as they come.
                    if let failure = held.writeOut(to: fd, ignoringMark: true) {
                        guard failure != OutputWrite.cancelled else { return }
                        pending.removeAll { $0 === self }
                        fail(failure)
                        held.empty()
                        return
                    }
                }
                // Written as it comes, past the buffer: no longer held back for the ending.
                held.passMark()
            }
            if let failure = OutputWrite.all(bytes, to: fd), failure != OutputWrite.cancelled { fail(failure) }
        }
    }

    /// Keeps `code` as the failure. Under ``pending``'s lock.
    private func fail(_ code: Int32) {
        failureCode.store(code, ordering: .releasing)
    }

    /// Writes out the buffer; whether nothing is left held (what an event being written appended
    /// stays until it is said written: ``SignalSafeBuffer/mark()``). Under ``pending``'s lock.
    func flush(ignoringMark: Bool = false) -> Bool {
        guard case .descriptor(let fd, _) = kind else { return true }
        guard let held, held.count > 0 else { return true }
        if failure == nil {
            let failure = held.writeOut(to: fd, ignoringMark: ignoringMark)
            // Cut short as the process ends: what is left is the ending thread's to write.
            if failure == OutputWrite.cancelled { return false }
            guard let failure else { return held.count == 0 }
            fail(failure)
        }
        held.empty()
        return true
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
