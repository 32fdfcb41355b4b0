import Testing
@testable import SubscriberEventModel

/// An event call's arguments compare and hash by value, whatever their shape (the box finds the
/// value's `Hashable` conformance when asked, not when it is made).
@Suite("Event calls: equal and hashed by their arguments' values")
struct ArgumentBoxTests {
    @Test("every row's canonical calls: equal to the same calls made again (other boxes), hashed alike, unequal to other events' calls")
    func equalByValue() {
        let firstCalls = EventTable.rows.map(\.canonicalCalls)
        let againCalls = EventTable.rows.map(\.canonicalCalls)
        for (row, (first, again)) in zip(EventTable.rows, zip(firstCalls, againCalls)) {
            #expect(!first.isEmpty, "\(row.name): no canonical call")
            for (call, same) in zip(first, again) {
                #expect(call.arguments !== same.arguments, "\(row.name): the boxes compared must be distinct")
                #expect(call == same, "\(row.name): a call differs from the same call made again")
                #expect(call.hashValue == same.hashValue, "\(row.name): equal calls hash differently")
            }
        }
        let one = firstCalls.map { $0[0] }
        for (position, call) in one.enumerated() {
            for (otherPosition, other) in one.enumerated() where otherPosition != position {
                #expect(call != other, "\(call.event) equals \(other.event)")
            }
        }
        #expect(Set(one).count == one.count, "one call per event: as many distinct calls in a set")
    }

    @Test("calls of one event with other arguments are unequal (openSettings: nil and a notification, …); boxes of other types never equal")
    func unequalByValue() {
        var compared = 0
        for row in EventTable.rows {
            let calls = row.canonicalCalls
            for (position, call) in calls.enumerated() {
                for other in calls[(position + 1)...] {
                    #expect(call != other, "\(row.name): two canonical calls with other arguments compare equal")
                    compared += 1
                }
            }
        }
        #expect(compared > 0, "the table has events with several canonical calls")
        let number = TypedArgumentBox(1), text = TypedArgumentBox("1")
        let none = TypedArgumentBox(Int?.none), zero = TypedArgumentBox(Int?.some(0)), noneAgain = TypedArgumentBox(Int?.none)
        #expect(!number.isEqual(text))
        #expect(!text.isEqual(number))
        #expect(!none.isEqual(zero))
        #expect(none.isEqual(noneAgain))
    }
}
