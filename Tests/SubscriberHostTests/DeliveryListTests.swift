import Foundation
import Testing
@testable import SubscriberHost

/// What every delivery to a subscriber list shares (its names, timing, clock, late reports, problem
/// reporter) is made when the list changes and lent to each event, not made per event.
@MainActor
@Suite("Dispatch: the delivery list made once per subscriber list")
struct DeliveryListTests {
    @Test("the same list for every event while the subscribers stay; a new one, with their names, after each add and remove")
    func madeOncePerList() throws {
        let (dispatcher, _, log) = makeDispatcher(["A", "B"])
        let first = dispatcher.deliveryList
        #expect(first.names == ["A", "B"])
        dispatcher.dispatchAtOnce(.willResignActive)
        dispatcher.dispatchAtOnce(.didEnterBackground)
        dispatcher.dispatchAtOnce(.willEnterForeground)
        #expect(dispatcher.deliveryList === first)
        #expect(first.lateReports === dispatcher.lateReports)

        try dispatcher.add(TestSubscriber("C", log: log).registration(priority: 5))
        let added = dispatcher.deliveryList
        #expect(added !== first)
        #expect(added.names == ["C", "A", "B"])
        #expect(added.names == dispatcher.subscribers.map(\.name))
        let opened = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(opened.answerNames == ["C", "A", "B"])
        #expect(dispatcher.deliveryList === added)

        try dispatcher.remove(named: "A")
        #expect(dispatcher.deliveryList !== added)
        #expect(dispatcher.deliveryList.names == ["C", "B"])
        let again = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://y")!))
        #expect(again.answerNames == ["C", "B"])
        // The list the first events were delivered with is unchanged: an outcome made from it still
        // names its subscribers as they were.
        #expect(first.names == ["A", "B"])
    }
}
