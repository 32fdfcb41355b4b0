import SubscriberKit
import SubscriberEventModel

/// One canonical call: an event with ordinary, well-formed arguments, and a label for evidence.
struct CanonicalCall: Sendable {
    let call: AnyEventCall
    /// "openURL #2": the event and which of its canonical inputs.
    let label: String

    var event: LifecycleEvent { call.event }
}

/// The canonical input of every event: what a real app sends, one or more variants each, in the
/// event table's order. Each event's argument shape says what its ordinary values are, so a new
/// event gets canonical input without an edit here.
enum CanonicalInput {
    /// Every canonical call, in event-table order.
    static let calls: [CanonicalCall] = EventTable.rows.flatMap { row in
        row.canonicalCalls.enumerated().map { index, call in CanonicalCall(call: call, label: "\(row.name) #\(index + 1)") }
    }

    /// The canonical calls of the events in `events`, in event-table order.
    static func calls(for events: [LifecycleEvent]) -> [CanonicalCall] {
        let wanted = Set(events)
        return calls.filter { wanted.contains($0.event) }
    }
}
