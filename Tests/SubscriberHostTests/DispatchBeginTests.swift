import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// `begin` (the script's synchronous path) reads an event settled when delivered from its flight in
/// place; `dispatchAtOnce` makes its delivered outcome from the flight's `settled` result (a copy),
/// a path of its own (`dispatch` of an erased call goes through `begin` itself). Both make the same outcome.
@MainActor
@Suite("Dispatch: begin's outcome of a settled event is dispatchAtOnce's")
struct DispatchBeginTests {
    /// What an outcome says, in one comparable line per part.
    private func summary(_ outcome: AnyEventOutcome) -> [String] {
        ["\(outcome.event)", "\(outcome.result)", "\(outcome.applicationState)", "\(outcome.invocation as Any)",
         "\(outcome.refusal as Any)", "\(outcome.reports)",
         "\(outcome.answers.map { "\($0.subscriber)=\($0.answer as Any)" })"]
    }

    @Test("notifications, answers at once, a conflict's report, a refused event: the same outcome both ways")
    func sameOutcome() async {
        func erased<Immediate, Final>(_ call: EventCall<Immediate, Final>) -> AnyEventCall { call.erased }
        let calls = [
            erased(.willResignActive),
            erased(.openURL(url: URL(string: "news://article/7")!, options: OpenURLOptions())),
            erased(.supportedInterfaceOrientations(idiom: .phone)),
            erased(.didFinishLaunching(options: LaunchOptions())),  // a second launch: refused
            erased(.didBecomeActive),
        ]
        func setUp(_ subscriber: TestSubscriber) {
            subscriber.answers[.openURL] = subscriber.name == "A"
            subscriber.orientations = subscriber.name == "A" ? .portrait : .landscapeLeft  // a conflict
        }
        let (beginning, _, _) = makeDispatcher(["A", "B"], setUp: setUp)
        let (dispatching, _, _) = makeDispatcher(["A", "B"], setUp: setUp)
        for call in calls {
            var made: AnyEventOutcome?
            let waiting = beginning.begin(call) { made = $0 }
            #expect(waiting == nil, "\(call.event) settles when delivered")
            var expected: AnyEventOutcome?
            _ = dispatching.dispatchAtOnce(call) { expected = $0 }
            #expect(expected != nil, "\(call.event) delivered at once")
            #expect(made.map(summary) == expected.map(summary), "\(call.event)")
        }
    }
}
