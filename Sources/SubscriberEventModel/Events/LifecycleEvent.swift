import SubscriberValues
/// A lifecycle event a subscriber can respond to, of any family (the app delegate's, the
/// notification center's, …), by its wire name: the name used in manifests, event scripts and output
/// (docs/events.md). Each event is a static member (`.openURL`, `.willPresentNotification`); its
/// facts are its row in the event table.
public struct LifecycleEvent: Sendable, Hashable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The event's row. Unowned: rows are the table's static constants and live as long as the
    /// process, so an event is copied, passed and compared without reference counting.
    package unowned(unsafe) let row: EventRow

    package init(row: EventRow) { self.row = row }

    /// The event with wire name `rawValue` (`"openURL"`, `"notifications.willPresent"`), or nil.
    public init?(rawValue: String) {
        guard let row = EventTable.rowsByName[rawValue] else { return nil }
        self.init(row: row)
    }

    /// The wire name.
    public var rawValue: String { row.name }

    /// Every event, in table order: the app delegate's, then each other family's.
    public static var allCases: [LifecycleEvent] { EventTable.events }

    /// The wire name.
    public var name: String { row.name }
    /// The wire name.
    public var description: String { row.name }
    /// Whether subscribers answer this event through a completion handler (so it has a deadline).
    public var answersThroughCompletion: Bool { row.timing.completes }
    /// The event's family: "application", "notifications", "scene".
    public var family: String { row.family.name }
    /// The reconciler this event uses unless another is chosen; nil for events without answers.
    public var defaultReconciler: ReconcilerChoice? { row.defaultReconciler }
    /// The reconcilers that may be chosen for this event (its answer's).
    public var fittingReconcilers: [ReconcilerChoice] { row.fittingReconcilers }

    /// Checks that `choice` fits this event's answer; throws saying what fits when it does not.
    package func check(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) {
        _ = try row.policy(choice, settings: DeliverySettings())
    }

    /// The event's position in the table: dispatch arrays are indexed by it.
    @inline(__always)
    package var index: Int {
        let index = row.index
        if index >= 0 { return index }
        // The table numbers its rows when it is first read.
        _ = EventTable.rows
        return row.index
    }

    public static func == (lhs: LifecycleEvent, rhs: LifecycleEvent) -> Bool { lhs.row === rhs.row }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(row)) }
}

/// The event table: every family's rows, in order (docs/architecture.md).
package enum EventTable {
    /// Every row; a row's position is its event's ``LifecycleEvent/index``.
    package static let rows: [EventRow] = {
        let rows = ApplicationEvents.rows + NotificationCenterEvents.rows + SceneEvents.rows
        for (index, row) in rows.enumerated() { row.index = index }
        // The constants the SDK's C entries pass must name the same positions.
        precondition(EventIndex.allCases.count == rows.count, "event table: \(rows.count) rows, \(EventIndex.allCases.count) EventIndex cases")
        for entry in EventIndex.allCases where entry.event.row !== rows[entry.rawValue] {
            fatalError("event table: EventIndex.\(entry) is \(entry.rawValue), its event \(entry.event.row.name) is row \(entry.event.row.index)")
        }
        return rows
    }()

    /// Every event, in table order.
    package static let events: [LifecycleEvent] = rows.map(LifecycleEvent.init(row:))

    /// The rows by wire name.
    package static let rowsByName: [String: EventRow] = Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0) })
}
