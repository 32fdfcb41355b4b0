/// Bytes written in place, for a line the CLI writes many times (an event's JSON line): one
/// allocation kept for the run, a constant or a run of bytes appended with a bounds check and a
/// copy. An `[UInt8]`'s `append(contentsOf:)` checks uniqueness and capacity and goes through
/// generic code: about 90 instructions for each of the eleven or so small appends of an event's
/// line (callgrind, release); here a constant is about 15.
struct OutputBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0
    /// The room it has now, written or not.
    private(set) var capacity: Int
    /// Bytes written by code that writes into an `[UInt8]` (an answer shape) on their way into
    /// these, kept with them so that their room is reused too (``withScratch(_:)``).
    private var scratch: [UInt8] = []
    /// The row starts of the last subscriber list a line named (``rowStarts(for:)``): one kept.
    private var rowStartsKept: SubscriberRowStarts?

    /// Empty, with room for `capacity` bytes before it grows.
    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far (valid until the next change).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The most room kept from one line to the next: a larger line (a huge answer) gives the rest
    /// back, so that one such line does not hold its memory for the run.
    static let keptRoom = 64 << 10

    /// Forgets what was written, keeping the room (at most ``keptRoom`` bytes of it).
    @inline(__always)
    mutating func removeAll() {
        count = 0
        if capacity > Self.keptRoom { giveBackRoom() }
    }

    private mutating func giveBackRoom() {
        base.deallocate()
        capacity = Self.keptRoom
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        scratch = []
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    /// Appends the literal `text`'s bytes.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let added = bytes.count
        guard added > 0, let source = bytes.baseAddress else { return }
        if capacity - count < added { grow(toHold: added) }
        (base + count).update(from: source, count: added)
        count += added
    }

    /// Appends what `write` writes at the end: it is given room for `limit` bytes and returns how
    /// many of them it wrote.
    @inline(__always)
    mutating func append(upTo limit: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - count < limit { grow(toHold: limit) }
        count += write(base + count)
    }

    /// Appends `bytes`.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Runs `body` with the kept `[UInt8]`, emptied, and returns what `body` returns.
    @inline(__always)
    mutating func withScratch<T>(_ body: (inout [UInt8]) -> T) -> T {
        var taken: [UInt8] = []
        swap(&taken, &scratch)
        taken.removeAll(keepingCapacity: taken.capacity <= Self.keptRoom)
        defer { swap(&taken, &scratch) }
        return body(&taken)
    }

    /// Each subscriber's row start for `names` (a line's subscriber list): the one kept when it is
    /// for the same list (the same array's storage, or the same names byte for byte: `String`'s `==`
    /// would take a name's other Unicode normal form for it), else made and kept.
    @inline(__always)
    mutating func rowStarts(for names: [String]) -> SubscriberRowStarts {
        if let kept = rowStartsKept, Self.sameBytes(kept.names, names) { return kept }
        let made = SubscriberRowStarts(names)
        rowStartsKept = made
        return made
    }

    /// Whether `a` and `b` are one array's storage (nearly always: told inline) or hold the same
    /// names, byte for byte.
    @inline(__always)
    static func sameBytes(_ a: [String], _ b: [String]) -> Bool {
        let shared = a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.count == y.count && x.baseAddress == y.baseAddress }
        }
        return shared || sameNames(a, b)
    }

    /// Whether `a` and `b` hold the same names, byte for byte.
    private static func sameNames(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// Makes room for `added` more bytes: at least double.
    private mutating func grow(toHold added: Int) {
        let larger = max(capacity * 2, count + added)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
