import Foundation
import SubscriberDelivery
import SubscriberKit
import Synchronization

/// The host's ``SubscriberLogSink``: records what subscribers log and ask for, and hands each record
/// to an optional handler as it arrives (the CLI prints them). Thread-safe: subscribers log from any
/// thread.
///
/// Records are kept by event (``open(event:)``): what arrives while an event is the latest one
/// dispatched belongs to it, and goes with its outcome (``take(event:closing:)``), however late that
/// outcome comes — a continueUserActivity whose optional restoration handler is never called keeps
/// its lines, and the next event's lines never go with it. What arrives once its event's outcome was
/// handed out (or before any event) goes with the next outcome taken. Appending is O(1), taking is
/// linear in what is taken: an event that logs N lines costs O(N).
/// The handler sees the records in the order they are kept, and every record taken was handed to the
/// handler first (one lock around keeping and handing over, which taking waits for): an output that
/// stages lines as they arrive and writes them when they are taken finds each one, even when many
/// threads log at once. A record is numbered when it arrives, handed to the handler, then moved
/// into the kept ones at its number's place (a line the handler logs meanwhile is numbered after
/// it and kept after it): it is never copied.
package final class HostLogRecorder: SubscriberLogSink {
    /// What is kept; read and changed only under `lock`, one access at a time (no run-time
    /// exclusivity checks).
    @exclusivity(unchecked) private nonisolated(unsafe) var kept = Kept()
    /// The one lock: held while a record is kept and handed to the handler, while records are taken,
    /// and around every access to `kept`. Recursive: a handler may log again.
    private let lock = RecursiveLock()
    private let requestHandler: (@Sendable (HostRequest) -> Void)?
    private let retains: Bool
    private let handler: (@Sendable (LogRecord) -> Void)?

    /// A recorder. `handler` sees every record, on the thread that logged it; `retaining: false`
    /// only forwards (nothing to ``drain()``), for long runs that print as they go. The handler runs
    /// under the recorder's one (recursive) lock before its record is kept: what it asks of the
    /// recorder (``take(event:closing:)``, ``drain()``) does not yet hold the record it handles, a line
    /// it logs is kept right after that record, and ``open(event:)`` on another thread waits for it.
    package init(retaining: Bool = true, handler: (@Sendable (LogRecord) -> Void)? = nil,
                 requestHandler: (@Sendable (HostRequest) -> Void)? = nil) {
        self.retains = retaining
        self.handler = handler
        self.requestHandler = requestHandler
    }

    // MARK: Events

    /// Event `event` (a number new for each event) starts: what arrives from now on belongs to it,
    /// until the next event opens.
    package func open(event: Int) {
        guard retains else { return }
        lock.lock()
        defer { lock.unlock() }
        kept.records.open(event)
        kept.requests.open(event)
        kept.current = event
    }

    /// Takes what belongs to `event` and everything that belongs to no open event, oldest first;
    /// `closing`: its last outcome is being made, so what arrives for it later goes with the next.
    package func take(event: Int?, closing: Bool) -> (logs: [LogRecord], requests: [HostRequest]) {
        lock.lock()
        defer { lock.unlock() }
        return (kept.records.take(event, closing: closing), kept.requests.take(event, closing: closing))
    }

    // MARK: Everything at once

    /// Takes every request kept so far, oldest first, and forgets them.
    package func drainRequests() -> [HostRequest] {
        lock.lock()
        defer { lock.unlock() }
        return kept.requests.takeAll()
    }

    /// Takes every record kept so far, oldest first, and forgets them.
    package func drain() -> [LogRecord] {
        lock.lock()
        defer { lock.unlock() }
        return kept.records.takeAll()
    }

    /// The records kept so far, oldest first, without forgetting them.
    package var recorded: [LogRecord] {
        lock.lock()
        defer { lock.unlock() }
        return kept.records.all()
    }

    // MARK: What subscribers send

    /// Keeps and forwards a subscriber's request. [any-thread]
    package func request(_ request: SubscriberRequest, from subscriber: String) {
        let made = HostRequest(subscriber: subscriber, request: request)
        lock.lock()
        defer { lock.unlock() }
        if retains { kept.requests.append(made, to: kept.current) }
        requestHandler?(made)
    }

    /// Hands one record to the handler and keeps it.
    package func record(_ record: consuming LogRecord) {
        lock.lock()
        defer { lock.unlock() }
        guard retains else {
            handler?(record)
            return
        }
        // Numbered and placed now, handed over, then moved in: a line the handler logs (the lock is
        // recursive) is numbered after this one and kept after it, as the handler saw them.
        let number = kept.records.number()
        let event = kept.current
        handler?(record)
        kept.records.insert(record, number: number, to: event)
    }

    /// Records a log line. [any-thread]
    package func log(subscriber: String, level: LogLevel, message: String) {
        record(LogRecord(subscriber: subscriber, level: level, message: message))
    }

    /// Records an analytics event, at level info. [any-thread]
    package func logEvent(subscriber: String, name: String, attributes: JSONObject) {
        record(LogRecord(subscriber: subscriber, kind: .event, level: .info, message: name, attributes: attributes))
    }

    /// Records an analytics event whose attributes are checked text, kept as text. [any-thread]
    package func logEvent(subscriber: String, name: String, attributesText: JSONObjectText) {
        record(LogRecord(subscriber: subscriber, kind: .event, level: .info, message: name, attributesText: attributesText))
    }

    /// Records an error whose attributes are checked text, kept as text. [any-thread]
    package func logError(subscriber: String, message: String, attributesText: JSONObjectText) {
        record(LogRecord(subscriber: subscriber, kind: .error, level: .error, message: message, attributesText: attributesText))
    }

    /// Records an error, at level error. [any-thread]
    package func logError(subscriber: String, message: String, attributes: JSONObject) {
        record(LogRecord(subscriber: subscriber, kind: .error, level: .error, message: message,
                         attributes: attributes))
    }
}

/// What the recorder keeps: the records and the requests, each by event, and the event things
/// arriving now belong to.
private struct Kept {
    var records = ByEvent<LogRecord>()
    var requests = ByEvent<HostRequest>()
    var current: Int?
}

/// Elements kept by the event they belong to, each numbered in order of arrival. Open events are
/// those whose last outcome was not made yet: as many as events waiting for completions, a handful.
/// The latest event opened is kept apart from the others (``latest``): it is the only open one but
/// while an event waits for completions, so an ordinary event is opened, filled and taken with no
/// dictionary operation.
private struct ByEvent<Element> {
    typealias Numbered = (number: Int, element: Element)
    private var next = 0
    /// Elements that belong to no open event: they go with the next outcome made.
    private var loose: [Numbered] = []
    /// The latest event opened, while it is open, and its elements with their numbers beside them
    /// (two arrays, so that taking them hands out the elements' array as it is: no copy, no map).
    private var latest: Int?
    private var latestElements: [Element] = []
    private var latestNumbers = Numbers()
    /// The other open events' elements, by event.
    private var open: [Int: [Numbered]] = [:]
    /// The latest elements handed out (``take(_:closing:)``), kept to reuse their storage for the
    /// next event's: once the taker has let them go, no array is allocated for an event's
    /// elements. At most ``reusedLimit`` of them (a storm of lines is not kept beyond its event).
    private var handedOut: [Element] = []
    private static var reusedLimit: Int { 64 }

    // Inlined into the recorder's `open(event:)` (both of its calls: records and requests), as
    // `take` is into its `take`: each was a call an event, twice.
    @inline(__always)
    mutating func open(_ event: Int) {
        // Every event opens: no dictionary looked up while no other event is open, no array
        // emptied that is empty (each was about 85 instructions an event, twice: records and requests).
        guard latest != event, open.isEmpty || open[event] == nil else { return }
        if let latest { open[latest] = latestNumbered() }
        latest = event
        if latestElements.capacity != 0 { latestElements = [] }
        latestNumbers.removeAll()
    }

    /// The number of the next element to arrive.
    mutating func number() -> Int {
        next += 1
        return next
    }

    /// Appends an element arriving now to `event`'s (or the loose ones).
    mutating func append(_ element: consuming Element, to event: Int?) {
        insert(element, number: number(), to: event)
    }

    /// Keeps `element`, numbered `number` (``number()``), with `event`'s elements (or the loose
    /// ones), in order of number: at the end but when elements numbered after it came first (a
    /// handler's own lines), then just before them.
    mutating func insert(_ element: consuming Element, number: Int, to event: Int?) {
        if let event, event == latest {
            if latestElements.capacity == 0 { reuseHandedOut() }
            var at = latestNumbers.count
            while at > 0 && latestNumbers[at - 1] > number { at -= 1 }
            if at == latestNumbers.count {
                latestElements.append(element)
                latestNumbers.append(number)
            } else {
                latestElements.insert(element, at: at)
                latestNumbers.insert(number, at: at)
            }
        } else if let event, open[event] != nil {
            Self.insert((number, element), into: &open[event]!)
        } else {
            Self.insert((number, element), into: &loose)
        }
    }

    private static func insert(_ numbered: consuming Numbered, into elements: inout [Numbered]) {
        var at = elements.count
        while at > 0 && elements[at - 1].number > numbered.number { at -= 1 }
        elements.insert(numbered, at: at)
    }

    /// The storage of the elements handed out last, emptied, for the latest event's: in place
    /// once the taker has let them go; a new array of the same capacity if it still holds them.
    private mutating func reuseHandedOut() {
        guard handedOut.capacity > 0 else {
            // Room for a few from the start: storage grown one element at a time, then reused,
            // would grow again for an event with one more.
            return latestElements.reserveCapacity(4)
        }
        swap(&latestElements, &handedOut)
        // Emptied one element at a time, each destroyed by code compiled for it: the array's
        // `removeAll(keepingCapacity:)` destroys them through `swift_arrayDestroy`, which asks the
        // element type's value witnesses for each (about 350 instructions a record). Still held by
        // the taker (an outcome kept), the first `popLast` copies the storage (at most
        // ``reusedLimit`` elements, each retained, then let go one by one): bounded, and rare.
        while latestElements.popLast() != nil {}
    }

    /// `event`'s elements and the loose ones, merged in order of arrival (linear).
    @inline(__always)
    mutating func take(_ event: Int?, closing: Bool) -> [Element] {
        if let event, event == latest {
            if closing { latest = nil }
            // The usual case: nothing loose, the latest event's elements handed out as they are.
            if loose.isEmpty {
                // Nothing arrived (most events' requests): nothing to hand out, nothing to empty,
                // and the storage handed out last stays to be reused.
                if latestElements.isEmpty { return [] }
                let taken = latestElements
                latestElements = []
                latestNumbers.removeAll()
                handedOut = taken.capacity <= Self.reusedLimit ? taken : []
                return taken
            }
            let own = latestNumbered()
            latestElements = []
            latestNumbers.removeAll()
            return takeMerged(with: own)
        }
        let own: [Numbered]
        if let event, let elements = open[event] {
            own = elements
            if closing { open[event] = nil } else { open[event] = [] }
        } else {
            own = []
        }
        return takeMerged(with: own)
    }

    /// The loose elements merged with `own`, the loose ones forgotten.
    private mutating func takeMerged(with own: [Numbered]) -> [Element] {
        if loose.isEmpty && own.isEmpty { return [] }
        let taken = Self.merged(loose, own)
        loose.removeAll()
        return taken
    }

    /// The latest event's elements with their numbers.
    private func latestNumbered() -> [Numbered] {
        var numbered: [Numbered] = []
        numbered.reserveCapacity(latestElements.count)
        for index in latestElements.indices { numbered.append((latestNumbers[index], latestElements[index])) }
        return numbered
    }

    /// Every element, oldest first, forgotten (the events stay open).
    mutating func takeAll() -> [Element] {
        let taken = all()
        loose.removeAll()
        latestElements = []
        latestNumbers.removeAll()
        for event in open.keys { open[event] = [] }
        return taken
    }

    /// Every element, oldest first.
    func all() -> [Element] {
        var merged = latest == nil ? loose : Self.mergedNumbered(loose, latestNumbered())
        for elements in open.values where !elements.isEmpty { merged = Self.mergedNumbered(merged, elements) }
        return merged.map(\.element)
    }

    private static func merged(_ first: [Numbered], _ second: [Numbered]) -> [Element] {
        if second.isEmpty { return first.map(\.element) }
        if first.isEmpty { return second.map(\.element) }
        return mergedNumbered(first, second).map(\.element)
    }

    private static func mergedNumbered(_ first: [Numbered], _ second: [Numbered]) -> [Numbered] {
        var result: [Numbered] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count, j < second.count {
            if first[i].number < second[j].number {
                result.append(first[i]); i += 1
            } else {
                result.append(second[j]); j += 1
            }
        }
        result += first[i...]
        result += second[j...]
        return result
    }
}

/// Numbers in storage that is kept: emptied by setting a count, not through the array's generic
/// `removeAll(keepingCapacity:)` (about 85 instructions, once for every event that logged).
private struct Numbers {
    private var storage: [Int] = []
    private(set) var count = 0

    // Inlined where ByEvent keeps, opens and takes (a call to `append` was about 40 instructions a record).
    @inline(__always)
    subscript(index: Int) -> Int { storage[index] }

    @inline(__always)
    mutating func append(_ number: Int) {
        if count < storage.count {
            storage[count] = number
        } else {
            storage.append(number)
        }
        count += 1
    }

    mutating func insert(_ number: Int, at index: Int) {
        if storage.count > count { storage.removeSubrange(count...) }
        storage.insert(number, at: index)
        count += 1
    }

    /// Forgets the numbers; their storage is kept for the next event unless a storm of lines grew it
    /// past ``keptLimit`` (then it goes: bounded, like the records reused).
    @inline(__always)
    mutating func removeAll() {
        count = 0
        if storage.count > Self.keptLimit { storage = [] }
    }

    static var keptLimit: Int { 1_024 }
}

/// A recursive lock: the recorder's one lock. The standard library's mutex (an atomic exchange
/// each way while nobody waits) and the thread holding it, so that the holder may lock again (a
/// handler that logs): a pthread recursive mutex cost about 75 instructions a lock and unlock,
/// three or four times an event that logs.
private final class RecursiveLock: @unchecked Sendable {  // `depth` is changed by the holder only
    private let mutex = Mutex<Void>(())
    /// The holder's `pthread_self()`, 0 while none holds it. Only the holder ever finds its own
    /// thread here (it clears it before unlocking, and an id is reused only by a thread started
    /// after another ended): relaxed reads tell it apart from every other thread.
    private let holder = Atomic<UInt>(0)
    private var depth = 0

    @inline(__always) func lock() {
        let thread = UInt(pthread_self())
        if holder.load(ordering: .relaxed) == thread {
            depth += 1
            return
        }
        mutex._unsafeLock()
        holder.store(thread, ordering: .relaxed)
        depth = 1
    }

    @inline(__always) func unlock() {
        depth -= 1
        guard depth == 0 else { return }
        holder.store(0, ordering: .relaxed)
        mutex._unsafeUnlock()
    }
}

extension SubscriberLogSink {
    /// The context a subscriber named `name` is made with: this sink for its logs, the app's info and
    /// its manifest `options`.
    public func context(for name: String, application: Application, options: JSONValue = [:]) -> SubscriberContext {
        SubscriberContext(subscriberName: name, application: application, options: options, sink: self)
    }
}
