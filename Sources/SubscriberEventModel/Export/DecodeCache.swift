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

    /// By event index: the serial decoded last, and its value (a ``Decoded``).
    @exclusivity(unchecked) private var serials: [UInt64] = []
    @exclusivity(unchecked) private var decoded: [AnyObject?] = []

    /// Runs `body` with the value `arguments` carry for the event at `index`, borrowed from the cache (no copy of
    /// its URL, strings or JSON per subscriber); `fallback` when it cannot be delivered.
    @inline(__always)
    func withValue<A: ArgumentShape, R>(_ arguments: A.CArguments, _ index: Int, _: A.Type,
                                        for instance: ExportedInstance, fallback: R, _ body: (A.Value) -> R) -> R {
        let serial = A.serial(of: arguments)
        // Arguments without a serial (none, strings, numbers) are decoded per call, never cached.
        guard serial != 0 else {
            guard let value = decode(arguments, A.self, for: instance) else { return fallback }
            return body(value)
        }
        if index < serials.count, serials[index] == serial {
            // Decoded before for this serial: nil in the cache means it could not be delivered.
            guard let hit = decoded[index] else { return fallback }
            return borrowing(Unmanaged.passUnretained(unsafeDowncast(hit, to: Decoded<A.Value>.self))) { body($0.value) }
        }
        let value = decode(arguments, A.self, for: instance)
        if index >= serials.count {
            // Up to this event's index only: growing to the table's size would build the whole
            // table inside a plugin image, which otherwise makes only its adopted events' rows.
            serials += repeatElement(0, count: index + 1 - serials.count)
            decoded += repeatElement(nil, count: index + 1 - decoded.count)
        }
        serials[index] = serial
        decoded[index] = value.map { Decoded($0) }
        guard let value else { return fallback }
        return body(value)
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
