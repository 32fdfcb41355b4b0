import SubscriberABI
import SubscriberValues

/// The last decoded arguments of each event, keyed by the host's payload `serial`, so that the many
/// subscribers one image serves decode an event's payload once: the host gives equal payloads the
/// same serial (adh/payloads.h). Arguments without a serial (strings, numbers) are decoded per call;
/// serial 0 is never cached (a host that does not number its events).
///
/// What could not be decoded is reported once, by the instance that decoded it.
@MainActor
final class DecodeCache {
    /// This image's cache.
    static let shared = DecodeCache()

    /// How many payloads were decoded (not served from the cache); for tests and diagnostics.
    // Unchecked: main thread only, one entry call at a time.
    @exclusivity(unchecked) private(set) var decodeCount = 0

    /// By event index: the serial decoded last, its value (a ``Decoded``, owned here: nil when it
    /// could not be delivered) and whether a call is running on that value (``withValue``). Grown
    /// up to the largest index asked for; never shrunk (an image's cache lives as long as it).
    private struct Entry {
        var serial: UInt64 = 0
        var decoded: Unmanaged<AnyObject>?
        var busy = false
    }

    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>?
    @exclusivity(unchecked) private var capacity = 0

    /// Runs `body` with the value `arguments` carry for the event at `index`, borrowed from the cache (no copy of
    /// its URL, strings or JSON per subscriber, and no reference counting of its box); `fallback`
    /// when it cannot be delivered.
    ///
    /// While `body` runs on a cached value, its entry is marked busy: a call of the same event made
    /// from inside it (a nested dispatch) with another payload decodes its own value and does not
    /// replace the cached one, which is borrowed, not retained, by the call that is still running.
    @inline(__always)
    func withValue<A: ArgumentShape, R>(_ arguments: A.CArguments, _ index: Int, _: A.Type,
                                        for instance: ExportedInstance, fallback: R, _ body: (A.Value) -> R) -> R {
        let serial = A.serial(of: arguments)
        // Arguments without a serial (none, strings, numbers) are decoded per call, never cached.
        guard serial != 0 else {
            guard let value = decode(arguments, A.self, for: instance) else { return fallback }
            return body(value)
        }
        if index < capacity, let entry = entries, entry[index].serial == serial {
            // Decoded before for this serial: nil in the cache means it could not be delivered.
            guard let hit = entry[index].decoded else { return fallback }
            let wasBusy = entry[index].busy
            entry[index].busy = true
            // Read again: a nested call of a later event may have grown (moved) the entries meanwhile.
            defer { entries.unsafelyUnwrapped[index].busy = wasBusy }
            return borrowing(Unmanaged<Decoded<A.Value>>.fromOpaque(hit.toOpaque())) { body($0.value) }
        }
        return miss(arguments, serial, index, A.self, for: instance, fallback: fallback, body)
    }

    /// ``withValue``'s call for a serial not cached: decodes, and caches unless a call is running on
    /// the entry's value.
    private func miss<A: ArgumentShape, R>(_ arguments: A.CArguments, _ serial: UInt64, _ index: Int, _: A.Type,
                                           for instance: ExportedInstance, fallback: R, _ body: (A.Value) -> R) -> R {
        let decoded = decode(arguments, A.self, for: instance)
        if index >= capacity { grow(to: index + 1) }
        let entry = entries.unsafelyUnwrapped + index
        guard !entry.pointee.busy else {
            guard let value = decoded else { return fallback }
            return body(value)
        }
        let previous = entry.pointee.decoded
        entry.pointee.serial = serial
        // The value moved into its box (not bound and copied out of the optional) and borrowed from
        // there, as a hit is: copying it for `body` retained and released its URL, strings and JSON
        // once more per call. Marked busy while `body` runs, as a hit is: the entry owns the box.
        let box: Unmanaged<AnyObject>? = switch consume decoded {
        case .some(let value): Unmanaged.passRetained(Decoded(value) as AnyObject)
        case .none: nil
        }
        entry.pointee.decoded = box
        previous?.release()
        guard let box else { return fallback }
        entry.pointee.busy = true
        defer { entries.unsafelyUnwrapped[index].busy = false }
        return borrowing(Unmanaged<Decoded<A.Value>>.fromOpaque(box.toOpaque())) { body($0.value) }
    }

    /// Room for events `0..<count`. Up to this event's index only: growing to the table's size
    /// would build the whole table inside a plugin image, which otherwise makes only its adopted
    /// events' rows.
    private func grow(to count: Int) {
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: count)
        if let entries {
            grown.moveInitialize(from: entries, count: capacity)
            entries.deallocate()
        }
        (grown + capacity).initialize(repeating: Entry(), count: count - capacity)
        entries = grown
        capacity = count
    }

    @inline(__always)
    private func decode<A: ArgumentShape>(_ arguments: A.CArguments, _: A.Type, for instance: ExportedInstance) -> A.Value? {
        decodeCount += 1
        var problems: [String] = []
        let value = A.decode(arguments, problems: &problems)
        if !problems.isEmpty { problems.forEach(instance.warn) }
        return value
    }
}

/// One decoded value, shared by the subscribers that receive it (borrowed, never copied out).
final class Decoded<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
