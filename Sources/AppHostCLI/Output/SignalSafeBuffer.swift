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
/// Its bounds are offsets in the stream of every byte ever appended: they only grow (emptying it,
/// or moving the held bytes to the front of the block, changes where offset 0 of the block lies,
/// never an offset), so that an offset read earlier — the end of what an event had written —
/// still names the same byte later.
///
/// One writer at a time (its owner serialises them) copies bytes past the end, then publishes the
/// new end. Bytes are written out by taking them first (``take()``: the start moves past them with
/// one compare-and-exchange, before any write(2)), so that two threads writing out at once — the
/// write-out thread and a handler or the ending thread — never both write a byte: each writes the
/// bytes it took, and bytes a write did not get to are given back (``giveBack(from:taken:)``).
/// While it is marked (``mark()``: ``Survival`` marks the outputs while an event is written) bytes
/// appended since are held back from every write-out, so that they reach the output only with
/// the event said written.
struct SignalSafeBuffer: @unchecked Sendable {  // its memory is reached through atomics or by its one writer
    /// The most bytes it holds.
    let capacity: Int
    private let base: UnsafeMutablePointer<UInt8>
    /// `[0]`: the first byte held; `[1]`: one past the last; `[2]`: the first byte a write-out in
    /// progress took and has not written yet (-1: none), `[3]`: the thread doing it; `[4]`: the
    /// offset at the front of the block; `[5]`: the end when marked (no write-out takes bytes past
    /// it; `Int.max`: not marked), `[6]`: the start when marked (-1: not marked).
    private let bounds: UnsafeMutablePointer<Atomic<Int>>

    /// An empty buffer of `capacity` bytes, for the life of the process.
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        bounds = .allocate(capacity: 7)
        for (index, value) in [0, 0, -1, 0, 0, Int.max, -1].enumerated() { (bounds + index).initialize(to: Atomic(value)) }
    }

    /// Where the held bytes start.
    var start: Int { bounds[0].load(ordering: .acquiring) }
    /// One past the last byte held (what ``append(_:)`` returns).
    var end: Int { bounds[1].load(ordering: .acquiring) }
    /// How many bytes it holds.
    var count: Int { max(0, end - start) }
    /// The offset at the front of the block.
    private var origin: Int { bounds[4].load(ordering: .acquiring) }

    /// The bytes from offset `from` to `to`, where they lie now (or where they lay when the front of
    /// the block was at `origin`); nil when they are not all in the block (a reader on another
    /// thread that lost a race: nothing rather than anything else).
    private func bytes(from: Int, to: Int, origin: Int? = nil) -> UnsafeBufferPointer<UInt8>? {
        let origin = origin ?? self.origin
        guard from >= origin, to >= from, to - origin <= capacity else { return nil }
        return UnsafeBufferPointer(start: base + (from - origin), count: to - from)
    }

    /// Appends `bytes` and returns the new end; nil, appending nothing, when they do not fit.
    @discardableResult
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = self.end
        var at = end - origin
        if at + bytes.count > capacity {
            // No room at the end: the held bytes moved to the front, when they leave enough.
            guard count + bytes.count <= capacity else { return nil }
            at -= compact()
            guard at + bytes.count <= capacity else { return nil }
        }
        if let source = bytes.baseAddress { (base + at).update(from: source, count: bytes.count) }
        // Published after the copy: a reader on another thread sees the bytes it is told about.
        bounds[1].store(end + bytes.count, ordering: .releasing)
        return end + bytes.count
    }

    /// Appends what `write` writes at the end — it is given where and how many bytes fit, and
    /// returns how many it wrote, or nil for none — and returns the new end; nil when it wrote
    /// nothing. Published once written, as ``append(_:)``: a line rendered in place, not copied.
    func append(writing write: (UnsafeMutablePointer<UInt8>, Int) -> Int?) -> Int? {
        let end = self.end, at = end - origin
        guard at < capacity, let count = write(base + at, capacity - at) else { return nil }
        bounds[1].store(end + count, ordering: .releasing)
        return end + count
    }

    /// Forgets every byte held (the block is used from its front again).
    func empty() {
        let end = self.end
        // The start first: a reader between the two stores sees no bytes rather than a stale run.
        bounds[0].store(end, ordering: .releasing)
        bounds[4].store(end, ordering: .releasing)
    }

    /// Forgets the bytes before `offset` (an end ``append(_:)`` returned). Their bytes stay in the
    /// block until room is needed (a marked buffer's from its marked start on, until unmarked).
    func drop(before offset: Int) {
        bounds[0].store(min(offset, end), ordering: .releasing)
    }

    /// Moves the held bytes (a marked buffer's from its marked start) to the front of the block,
    /// making room at the end; returns how far they moved. Offsets do not change. Done when the end
    /// of the block is reached (``append(_:)``), nearly always with nothing held to move. A handler
    /// reading during a move may write garbled bytes: only when the process ends while the owner
    /// appends, which the ending thread waits for (``OutputClaims``) at most its patience; past it
    /// (a starved main thread) such bytes may be garbled.
    func compact() -> Int {
        let origin = self.origin, start = self.start, end = self.end, floor = bounds[6].load(ordering: .acquiring)
        let keep = floor >= 0 ? max(origin, min(start, floor)) : start
        guard keep > origin else { return 0 }
        base.update(from: base + (keep - origin), count: end - keep)
        bounds[4].store(keep, ordering: .releasing)
        return keep - origin
    }

    /// Marks the bytes held now: until ``unmark()``, no write-out takes the bytes appended from
    /// here on (``take()``). With `keepingDropped` (staged lines, which are dropped once written
    /// elsewhere), the ending thread can still write the bytes held now from where they start now
    /// (``writeOutBounded(to:timer:fromMark:)``), whatever is dropped meanwhile: room is then not
    /// made over them. Without it (an output's own bytes, taken only to be written), bytes written
    /// out are gone as ever, and their room is made again.
    func mark(keepingDropped: Bool) {
        if keepingDropped { bounds[6].store(start, ordering: .releasing) }
        bounds[5].store(end, ordering: .releasing)
    }

    /// Whether bytes appended since ``mark()`` were taken to be written (``writeOut(to:waitingAtMost:ignoringMark:)``).
    var isPastMark: Bool {
        let limit = bounds[5].load(ordering: .acquiring)
        return limit != Int.max && start > limit
    }

    /// Counts as ``isPastMark`` from here on (bytes of the marked part written without it).
    func passMark() {
        guard bounds[5].load(ordering: .acquiring) != Int.max else { return }
        bounds[5].store(start - 1, ordering: .releasing)
    }

    /// Lets the bytes appended since ``mark()`` be written out.
    func unmark() {
        bounds[5].store(Int.max, ordering: .releasing)
        bounds[6].store(-1, ordering: .releasing)
    }

    /// Calls `body` with the held bytes, without forgetting them. Async-signal-safe.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        body(bytes(from: start, to: end) ?? UnsafeBufferPointer(start: base, count: 0))
    }

    /// Calls `body` with the bytes from offset `from` to `to` (offsets ``append(_:)`` returned).
    func withBytes(from: Int, to: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        body(bytes(from: from, to: max(from, to)) ?? UnsafeBufferPointer(start: base, count: 0))
    }

    /// Takes every byte held (not past the marked end, unless `ignoringMark`), for the caller alone
    /// to write: the start moves past them, so that a writer on another thread finds them gone
    /// before it writes any. Their bounds; nil when nothing is there to take. Async-signal-safe.
    func take(announcing thread: UInt = 0, ignoringMark: Bool = false) -> (start: Int, end: Int)? {
        while true {
            // The end before the mark: bytes appended after a mark are seen with that mark.
            let start = self.start, end = min(self.end, ignoringMark ? Int.max : bounds[5].load(ordering: .acquiring))
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
    /// bytes not written stay held), nil when everything it may write was written (bytes appended
    /// since a ``mark()`` stay held). A full non-blocking output
    /// is waited for (poll), at most `milliseconds` at a time (-1: as long as it takes). Once the
    /// process is ending (``OutputClaims/isEnding``) it stops after the write(2) in flight and
    /// stops, the rest held for the ending thread (``OutputClaims/cutShort()``). Each byte is taken
    /// before it is written (``take()``): a writer on another thread never writes it again.
    /// With `ignoringMark`, the bytes appended since a ``mark()`` too (``isPastMark`` then).
    @discardableResult
    func writeOut(to fd: Int32, waitingAtMost milliseconds: Int32 = -1, ignoringMark: Bool = false) -> Int32? {
        writeOut(to: fd, waitingAtMost: milliseconds, ignoringMark: ignoringMark) { write($0, $1, $2) }
    }

    /// ``writeOut(to:waitingAtMost:)`` through `writing` (write(2)'s arguments and result): tests
    /// run another writer in the middle of a write with it.
    func writeOut(to fd: Int32, waitingAtMost milliseconds: Int32, ignoringMark: Bool = false,
                  through writing: (Int32, UnsafeRawPointer, Int) -> Int) -> Int32? {
        let me = UInt(pthread_self())
        while true {
            if OutputClaims.isEnding { return OutputClaims.cutShort() }
            guard let (start, end) = take(announcing: me, ignoringMark: ignoringMark) else { break }
            // The owner writes out: nothing moves the bytes meanwhile.
            let front = base + (start - origin)
            var offset = start
            while offset < end {
                let written = writing(fd, front + (offset - start), end - offset)
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
        if count == 0 { empty() }
        return nil
    }

    /// Writes the held bytes to `fd` as the process ends (``OutputWrite/bounded(_:to:timer:)``),
    /// then forgets them: only those no other writer took (``take()``), and those the
    /// `interrupted` thread (stopped in a handler, it never goes on) took and had not written (at
    /// worst the bytes of its one write(2) in flight twice). With `toMark`, not past the marked end
    /// (the event being written is not: what was written stops where it started); else every
    /// byte held. Async-signal-safe.
    func writeOutBounded(to fd: Int32, timer: EndingTimer?, interrupted: UInt = 0, toMark: Bool = false) {
        // Where the bytes lie, before they are taken and after: a writer that finds them taken
        // empties the block (its front moves past them) but leaves them where they are.
        let before = self.origin
        let from = bounds[2].load(ordering: .acquiring), start = self.start
        if interrupted != 0, bounds[3].load(ordering: .acquiring) == Int(bitPattern: interrupted), from >= 0, from < start,
           let bytes = bytes(from: from, to: start) {
            _ = OutputWrite.bounded(bytes, to: fd, timer: timer)
        }
        guard let (start, end) = take(ignoringMark: !toMark) else { return }
        let after = self.origin
        guard let bytes = bytes(from: start, to: end, origin: start >= after ? after : before) else { return }
        _ = OutputWrite.bounded(bytes, to: fd, timer: timer)
    }

    /// Writes the held bytes to `fd` as the process ends, as ``writeOutBounded(to:timer:interrupted:toMark:)``;
    /// with `fromMark`, from where they started when marked (the bytes dropped since were those of
    /// the event being written, which is not). For a buffer no one else writes out (staged lines).
    /// Async-signal-safe.
    func writeOutBounded(to fd: Int32, timer: EndingTimer?, fromMark: Bool) {
        let floor = bounds[6].load(ordering: .acquiring)
        guard let (start, end) = take(ignoringMark: true) ?? (fromMark && floor >= 0 ? (self.start, self.end) : nil) else { return }
        let first = fromMark && floor >= 0 ? max(min(floor, start), origin) : start
        guard let bytes = bytes(from: first, to: end) else { return }
        _ = OutputWrite.bounded(bytes, to: fd, timer: timer)
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
        var remade = false
        while offset < bytes.count {
            if OutputClaims.isEnding { return OutputClaims.cutShort() }
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EBADF, !remade {
                // apphost's copy of standard output or error, closed by a plugin: made again
                // (once a write: a plugin that keeps closing it cannot hold the writer). When it
                // cannot be, the failure reported is the write's.
                remade = true
                if !StandardDescriptors.remake(fd) { return EBADF }
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
        var remade = false
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
            if code == EBADF, !remade, StandardDescriptors.remake(fd) {
                remade = true
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
