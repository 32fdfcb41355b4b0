import SubscriberKit
import Testing
@testable import SubscriberHost

/// The dispatcher's sets of events by table index agree with a `Set<LifecycleEvent>`.
@Suite("Dispatch: sets of events as flags by event index")
struct EventFlagsTests {
    @Test("every event of the table, inserted in table order and in reverse: contains agrees with a Set after each insertion")
    func agreesWithSet() {
        for order in [LifecycleEvent.allCases, LifecycleEvent.allCases.reversed()] {
            var flags = EventFlags()
            var set: Set<LifecycleEvent> = []
            for inserted in order {
                flags.insert(inserted)
                set.insert(inserted)
                for event in LifecycleEvent.allCases where flags.contains(event) != set.contains(event) {
                    Issue.record("after inserting \(inserted): \(event) flagged \(flags.contains(event)), in the set \(set.contains(event))")
                }
            }
        }
    }

    @Test("the first-YES events: exactly the three scene events the fan-out stops at")
    func firstYesEvents() {
        let expected: Set<LifecycleEvent> = [.sceneOpenURLContexts, .sceneContinueUserActivity, .scenePerformActionForShortcutItem]
        for event in LifecycleEvent.allCases {
            #expect(DispatchRules.firstYesEvents.contains(event) == expected.contains(event), "\(event)")
        }
    }
}
