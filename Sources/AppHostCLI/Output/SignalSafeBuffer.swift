#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A fixed block of bytes that a signal handler or an exit hook may write out: allocated once, never
/// freed, its bounds published through atomics, so that a handler on any thread reads a consistent
/// run of bytes without taking a lock.
///
/// One writer at a time (its owner serialises them) copies bytes past the end, then publishes the
/// new end. Bytes are written out by taking them first (``take()``: the start moves past them with
/// one compare-and-exchange, before any write(2)), so that two threads writing out at once — the
/// write-out thread and a handler or the ending thread — never both write a byte: each writes the
/// bytes it took, and bytes a write did not get to are given back (``giveBack(from:taken:)``).
struct SignalSafeBuffer: @unchecked Sendable {  // its memory is reached through atomics or by its one writer
    /// The most bytes it holds.
    let capacity: Int
    private let base: UnsafeMutablePointer<UInt8>
    /// `[0]`: the first byte held; `[1]`: one past the last; `[2]`: the first byte a write-out in
    /// progress took and has not written yet (-1: none), `[3]`: the thread doing it.
    private let bounds: UnsafeMutablePointer<Atomic<Int>>

    /// An empty buffer of `capacity` bytes, for the life of the process.
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        bounds = .allocate(capacity: 4)
        (bounds + 0).initialize(to: Atomic(0))
        (bounds + 1).initialize(to: Atomic(0))
        (bounds + 2).initialize(to: Atomic(-1))
        (bounds + 3).initialize(to: Atomic(0))
    }

    /// Where the held bytes start.
    var start: Int { bounds[0].load(ordering: .acquiring) }
    /// One past the last byte held (what ``append(_:)`` returns).
    var end: Int { bounds[1].load(ordering: .acquiring) }
    /// How many bytes it holds.
    var count: Int { max(0, end - start) }

    /// Appends `bytes` and returns the new end; nil, appending nothing, when they do not fit.
    @discardableResult
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = self.end
        guard end + bytes.count <= capacity else { return nil }
        if let source = bytes.baseAddress { (base + end).update(from: source, count: bytes.count) }
        // Published after the copy: a reader on another thread sees the bytes it is told about.
        bounds[1].store(end + bytes.count, ordering: .releasing)
        return end + bytes.count
    }

    /// Appends what `write` writes at the end — it is given where and how many bytes fit, and
    /// returns how many it wrote, or nil for none — and returns the new end; nil when it wrote
    /// nothing. Published once written, as ``append(_:)``: a line rendered in place, not copied.
    func append(writing write: (UnsafeMutablePointer<UInt8>, Int) -> Int?) -> Int? {
        let end = self.end
        guard end < capacity, let count = write(base + end, capacity - end) else { return nil }
        bounds[1].store(end + count, ordering: .releasing)
        return end + count
    }

    /// Forgets every byte held.
    func empty() {
        // The end first: a reader between the two stores sees no bytes rather than a stale run.
        bounds[1].store(0, ordering: .releasing)
        bounds[0].store(0, ordering: .releasing)
    }

    /// Forgets the bytes before `offset` (an end ``append(_:)`` returned); empties the buffer when
    /// nothing is left.
    func drop(before offset: Int) {
        if offset >= end { empty() } else { bounds[0].store(offset, ordering: .releasing) }
    }

    /// Moves the held bytes to the front of the block, making room at the end; returns how far they
    /// moved (offsets ``append(_:)`` returned are that much smaller now). A handler reading during
    /// the move may write garbled bytes: callers do it rarely, and say so (``Survival``).
    func compact() -> Int {
        let start = self.start, end = self.end
        guard start > 0 else { return 0 }
        bounds[1].store(0, ordering: .releasing)
        bounds[0].store(0, ordering: .releasing)
        (base).update(from: base + start, count: end - start)
        bounds[1].store(end - start, ordering: .releasing)
        return start
    }

    /// Calls `body` with the held bytes, without forgetting them. Async-signal-safe.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let start = self.start, end = self.end
        body(UnsafeBufferPointer(start: base + start, count: max(0, end - start)))
    }

    /// Calls `body` with the bytes from offset `from` to `to` (offsets ``append(_:)`` returned).
    func withBytes(from: Int, to: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        body(UnsafeBufferPointer(start: base + from, count: max(0, min(to, capacity) - from)))
    }

    /// Takes every byte held, for the caller alone to write: the start moves past them, so that a
    /// writer on another thread finds them gone before it writes any. Their bounds; nil when
    /// nothing is held. Async-signal-safe.
    func take(announcing thread: UInt = 0) -> (start: Int, end: Int)? {
        while true {
            let start = self.start, end = self.end
            guard start < end else {
                if thread != 0 { bounds[2].store(-1, ordering: .releasing) }
                return nil
            }
            if thread != 0 {
                // Announced before they are taken: a handler that stops this thread between the
                // take and the write knows they are not written (``writeOutBounded(to:timer:interrupted:)``).
                bounds[3].store(Int(bitPattern: thread), ordering: .releasing)
                bounds[2].store(start, ordering: .releasing)
            }
            if bounds[0].compareExchange(expected: start, desired: end, ordering: .acquiringAndReleasing).exchanged {
                return (start, end)
            }
        }
    }

    /// Gives back the bytes from `offset` to `taken` (the end ``take()`` returned) that were not
    /// written, so that they are held again; nothing when another writer took bytes after them
    /// meanwhile (only a write that outlived the end of the process's patience: they are then not
    /// written, rather than written out of order or twice).
    func giveBack(from offset: Int, taken: Int) {
        guard offset < taken else { return }
        _ = bounds[0].compareExchange(expected: taken, desired: offset, ordering: .acquiringAndReleasing)
    }

    /// Writes the held bytes to `fd` and empties the buffer; the `errno` of a write that failed (the
    /// bytes not written stay held), nil when everything was written. A full non-blocking output
    /// is waited for (poll), at most `milliseconds` at a time (-1: as long as it takes). Once the
    /// process is ending (``OutputClaims/isEnding``) it stops after the write(2) in flight and
    /// stops, the rest held for the ending thread (``OutputClaims/cutShort()``). Each byte is taken
    /// before it is written (``take()``): a writer on another thread never writes it again.
    @discardableResult
    func writeOut(to fd: Int32, waitingAtMost milliseconds: Int32 = -1) -> Int32? {
        writeOut(to: fd, waitingAtMost: milliseconds) { write($0, $1, $2) }
    }

    /// ``writeOut(to:waitingAtMost:)`` through `writing` (write(2)'s arguments and result): tests
    /// run another writer in the middle of a write with it.
    func writeOut(to fd: Int32, waitingAtMost milliseconds: Int32,
                  through writing: (Int32, UnsafeRawPointer, Int) -> Int) -> Int32? {
        let me = UInt(pthread_self())
        while true {
            if OutputClaims.isEnding { return OutputClaims.cutShort() }
            guard let (start, end) = take(announcing: me) else { break }
            var offset = start
            while offset < end {
                let written = writing(fd, base + offset, end - offset)
                if written > 0 {
                    offset += written
                    bounds[2].store(offset, ordering: .releasing)
                } else if let failure = OutputWrite.retry(written: written, fd: fd, waitingAtMost: milliseconds) {
                    giveBack(from: offset, taken: end)
                    bounds[2].store(-1, ordering: .releasing)
                    return failure
                }
                if offset < end && OutputClaims.isEnding {
                    giveBack(from: offset, taken: end)
                    bounds[2].store(-1, ordering: .releasing)
                    return OutputClaims.cutShort()
                }
            }
            bounds[2].store(-1, ordering: .releasing)
        }
        empty()
        return nil
    }

    /// Writes the held bytes to `fd` as the process ends (``OutputWrite/bounded(_:to:timer:)``),
    /// then forgets them: only those no other writer took (``take()``), and those the
    /// `interrupted` thread (stopped in a handler, it never goes on) took and had not written (at
    /// worst the bytes of its one write(2) in flight twice). Async-signal-safe.
    func writeOutBounded(to fd: Int32, timer: EndingTimer?, interrupted: UInt = 0) {
        let from = bounds[2].load(ordering: .acquiring), start = self.start
        if interrupted != 0, bounds[3].load(ordering: .acquiring) == Int(bitPattern: interrupted), from >= 0, from < start {
            _ = OutputWrite.bounded(UnsafeBufferPointer(start: base + from, count: start - from), to: fd, timer: timer)
        }
        guard let (start, end) = take() else { return }
        _ = OutputWrite.bounded(UnsafeBufferPointer(start: base + start, count: end - start), to: fd, timer: timer)
    }
}

/// How the outputs write: every byte, through interruptions, short writes and full non-blocking
/// outputs. Async-signal-safe (write, poll and errno only).
enum OutputWrite {
    /// Writes every byte of `bytes` to `fd`; the `errno` of a write that failed, nil when everything
    /// was written. A non-blocking output that is full (`EAGAIN`: a pipe whose reader pauses, as
    /// Node.js and some supervisors hand out) is waited for with poll(2), at most `milliseconds` at
    /// a time (-1: as long as it takes, like a blocking write).
    static func all(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32, waitingAtMost milliseconds: Int32 = -1) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            if OutputClaims.isEnding { return OutputClaims.cutShort() }
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if let failure = retry(written: written, fd: fd, waitingAtMost: milliseconds) {
                return failure
            }
        }
        return nil
    }

    /// What a write returns that stopped because the process is ending: not a failure of the
    /// output; what it did not write is the ending thread's to write.
    static let cancelled = ECANCELED

    /// How long a write on the way down waits for a reader that makes no progress (2 s).
    static let patienceMilliseconds: Int32 = 2_000

    /// Writes `bytes` to `fd` as the process ends: never blocked for longer than
    /// ``patienceMilliseconds`` without progress, whatever the output (a pipe or terminal whose
    /// reader stopped). On the ending thread, `timer` interrupts a blocking write(2) that long
    /// without progress; elsewhere (no `timer`) the output is polled before each write of at most
    /// `PIPE_BUF` bytes, which a pipe takes without blocking once it has room. Whether every byte
    /// was written. Async-signal-safe.
    static func bounded(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32, timer: EndingTimer?) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            var size = bytes.count - offset
            if timer == nil {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var ready: Int32
                repeat { ready = poll(&poller, 1, patienceMilliseconds) } while ready < 0 && errno == EINTR
                guard ready > 0 else { return false }
                size = min(size, Int(PIPE_BUF))
            }
            timer?.arm(milliseconds: patienceMilliseconds)
            let written = write(fd, base + offset, size)
            let code = errno
            let expired = timer?.disarm() ?? false
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0 else { return false }
            if code == EINTR {
                if expired { return false }
                continue
            }
            guard code == EAGAIN || code == EWOULDBLOCK, timer != nil else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, patienceMilliseconds) > 0 else { return false }
        }
        return true
    }

    /// After a write(2) that wrote nothing: nil to try again (interrupted, or a full non-blocking
    /// output now writable), else the `errno` to give up with.
    static func retry(written: Int, fd: Int32, waitingAtMost milliseconds: Int32) -> Int32? {
        // A write of 0 bytes to a non-empty request makes no progress: treat it as full.
        guard written < 0 else { return ENOSPC }
        let code = errno
        if code == EINTR { return nil }
        guard code == EAGAIN || code == EWOULDBLOCK else { return code }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready > 0 { return nil }  // writable, or an error the next write reports
        if ready == 0 { return EAGAIN }  // waited as long as allowed
        // Interrupted: the caller looks again (and stops there when the process is ending).
        return errno == EINTR ? nil : errno
    }
}
