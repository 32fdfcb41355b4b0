import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Logs the application's state it sees during each event of ``ApplicationStateTests/day``:
/// exported through C, it reads it from `adh.host.state/1`.
final class StateRecorder: InstantiableSubscriber, WillFinishLaunchingSubscriber, DidFinishLaunchingSubscriber,
    DidBecomeActiveSubscriber, WillResignActiveSubscriber, DidEnterBackgroundSubscriber, WillEnterForegroundSubscriber,
    WillTerminateSubscriber, DidReceiveMemoryWarningSubscriber, OpenURLSubscriber, PerformFetchSubscriber,
    WillPresentNotificationSubscriber {
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }
    private func saw(_ event: LifecycleEvent, _ application: Application) {
        context.log("\(event) while \(application.applicationState)")
    }
    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        saw(.willFinishLaunching, application)
        return nil
    }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        saw(.didFinishLaunching, application)
        return nil
    }
    func applicationDidBecomeActive(_ application: Application) { saw(.didBecomeActive, application) }
    func applicationWillResignActive(_ application: Application) { saw(.willResignActive, application) }
    func applicationDidEnterBackground(_ application: Application) { saw(.didEnterBackground, application) }
    func applicationWillEnterForeground(_ application: Application) { saw(.willEnterForeground, application) }
    func applicationWillTerminate(_ application: Application) { saw(.willTerminate, application) }
    func applicationDidReceiveMemoryWarning(_ application: Application) { saw(.didReceiveMemoryWarning, application) }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        saw(.openURL, application)
        return nil
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        saw(.performFetch, application)
        completionHandler(.noData)
    }
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        saw(.willPresentNotification, application)
        completionHandler([])
    }
}

/// The application's state machine (UIApplication.State): an event UIKit would never deliver in the
/// current state is not delivered, its outcome carries exactly one `stateViolation` naming the state
/// at the time, and the state is unchanged; along the legal path, subscribers and outcomes see the
/// states UIKit gives (`will…` in the state they leave, `did…` in the state they enter).
@MainActor
@Suite("Application state: violations and the legal path")
struct ApplicationStateTests {
    /// Expects `outcome` to be `event` refused in `state`: one report, a stateViolation of `event`
    /// in `state` saying what was expected; nobody called; the state still `state`.
    func expectRefused<Result>(_ outcome: EventOutcome<Result>, _ event: LifecycleEvent, in state: ApplicationState,
                               dispatcher: LifecycleDispatcher, log: CallLog,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.reports.count == 1, "\(event) in \(state): \(outcome.reports)", sourceLocation: sourceLocation)
        if case .stateViolation(let reported, let at, let expected)? = outcome.reports.first {
            #expect(reported == event, sourceLocation: sourceLocation)
            #expect(at == state, sourceLocation: sourceLocation)
            #expect(!expected.isEmpty, sourceLocation: sourceLocation)
        } else {
            Issue.record("\(event) in \(state): expected one stateViolation, found \(outcome.reports)", sourceLocation: sourceLocation)
        }
        #expect(log.entries.isEmpty, "\(event) in \(state) was delivered to \(log.entries)", sourceLocation: sourceLocation)
        #expect(outcome.answers.isEmpty, sourceLocation: sourceLocation)
        #expect(outcome.applicationState == state, sourceLocation: sourceLocation)
        #expect(dispatcher.applicationState == state, sourceLocation: sourceLocation)
        #expect(dispatcher.application.applicationState == state, sourceLocation: sourceLocation)
        #expect(dispatcher.stateCell.state == state, sourceLocation: sourceLocation)
    }

    /// A dispatcher of two test subscribers taken through `calls` (each expected to be delivered),
    /// with its log cleared afterwards.
    func dispatcher(after calls: [AnyEventCall], sourceLocation: SourceLocation = #_sourceLocation)
        -> (dispatcher: LifecycleDispatcher, subscribers: [TestSubscriber], log: CallLog)
    {
        let made = makeDispatcher(["A", "B"], launched: false)
        for call in calls {
            let outcome = made.dispatcher.dispatchAtOnce(call)
            #expect(!outcome.reports.contains { $0.isStateViolation }, "setting up: \(call.event)", sourceLocation: sourceLocation)
        }
        made.log.entries = []
        made.subscribers.forEach { $0.applications = [] }
        return made
    }

    // MARK: Violations

    @Test("didBecomeActive before launch: not delivered, one stateViolation in notRunning, still notRunning")
    func activeBeforeLaunch() {
        let (dispatcher, _, log) = dispatcher(after: [])
        let outcome = dispatcher.dispatchAtOnce(.didBecomeActive)
        expectRefused(outcome, .didBecomeActive, in: .notRunning, dispatcher: dispatcher, log: log)
        // The launch that follows is delivered as if nothing had happened.
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).reports.isEmpty)
        #expect(log.callers(of: .didFinishLaunching) == ["A", "B"])
    }

    @Test("a second didFinishLaunching: refused while launching and once active; the first launch's invocation stays")
    func secondLaunch() {
        let (dispatcher, _, log) = dispatcher(after: [EventCall.didFinishLaunching().erased])
        let again = EventCall.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://article/1")!))
        expectRefused(dispatcher.dispatchAtOnce(again), .didFinishLaunching, in: .inactive, dispatcher: dispatcher, log: log)
        #expect(dispatcher.application.launchInvocation == .appIconClick)

        #expect(dispatcher.dispatchAtOnce(.didBecomeActive).reports.isEmpty)
        log.entries = []
        expectRefused(dispatcher.dispatchAtOnce(again), .didFinishLaunching, in: .active, dispatcher: dispatcher, log: log)
        #expect(dispatcher.application.launchInvocation == .appIconClick)
    }

    @Test("willFinishLaunching after didFinishLaunching: refused in inactive")
    func willFinishAfterDidFinish() {
        let (dispatcher, _, log) = dispatcher(after: [EventCall.didFinishLaunching().erased])
        expectRefused(dispatcher.dispatchAtOnce(.willFinishLaunching()), .willFinishLaunching, in: .inactive,
                      dispatcher: dispatcher, log: log)
        // A second willFinishLaunching after a first one is refused too.
        let (twice, _, twiceLog) = self.dispatcher(after: [EventCall.willFinishLaunching().erased])
        expectRefused(twice.dispatchAtOnce(.willFinishLaunching()), .willFinishLaunching, in: .inactive,
                      dispatcher: twice, log: twiceLog)
    }

    @Test("after willTerminate, every event of the table is refused in terminated, completion events included")
    func nothingAfterTerminate() async {
        for call in oneCallPerEvent {
            let (dispatcher, _, log) = dispatcher(after: [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased,
                                                          EventCall.willTerminate.erased])
            #expect(dispatcher.applicationState == .terminated)
            let delivered = Deliveries<any Sendable>()
            let outcome = dispatcher.dispatchAtOnce(call, whenDelivered: delivered.handler)
            expectRefused(outcome, call.event, in: .terminated, dispatcher: dispatcher, log: log)
            // What comes later (nothing: nobody was called) is delivered at once, once, with the same report.
            #expect(delivered.outcomes.count == 1)
            if let later = delivered.outcomes.first { expectRefused(later, call.event, in: .terminated, dispatcher: dispatcher, log: log) }
            let awaited = await dispatcher.dispatch(call)
            expectRefused(awaited, call.event, in: .terminated, dispatcher: dispatcher, log: log)
        }
    }

    @Test("willEnterForeground while active: refused in active")
    func foregroundWhileActive() {
        let (dispatcher, _, log) = dispatcher(after: [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased])
        expectRefused(dispatcher.dispatchAtOnce(.willEnterForeground), .willEnterForeground, in: .active,
                      dispatcher: dispatcher, log: log)
        // The app goes on from where it was.
        #expect(dispatcher.dispatchAtOnce(.willResignActive).reports.isEmpty)
        #expect(dispatcher.applicationState == .inactive)
    }

    // MARK: The legal path

    /// UIKit's states along a day of the app, written here independently of the rows: the state a
    /// subscriber sees during each event, and the state after it.
    static let day: [(call: AnyEventCall, during: ApplicationState, after: ApplicationState)] = [
        (EventCall.willFinishLaunching().erased, .inactive, .inactive),
        (EventCall.didFinishLaunching().erased, .inactive, .inactive),
        (EventCall.openURL(url: URL(string: "news://article/1")!).erased, .inactive, .inactive),
        (EventCall.didBecomeActive.erased, .active, .active),
        (EventCall.didReceiveMemoryWarning.erased, .active, .active),
        (EventCall.willPresentNotification(UserNotification(identifier: "n")).erased, .active, .active),
        (EventCall.willResignActive.erased, .active, .inactive),
        (EventCall.didEnterBackground.erased, .background, .background),
        (EventCall.performFetch.erased, .background, .background),
        (EventCall.willEnterForeground.erased, .background, .inactive),
        (EventCall.didBecomeActive.erased, .active, .active),
        (EventCall.willResignActive.erased, .active, .inactive),
        (EventCall.didEnterBackground.erased, .background, .background),
        (EventCall.willTerminate.erased, .background, .terminated),
    ]

    @Test("the legal path: notRunning → inactive → active → inactive → background → inactive → … → terminated, as UIKit")
    func legalPath() async {
        let (dispatcher, subscribers, log) = dispatcher(after: [])
        #expect(dispatcher.applicationState == .notRunning)
        #expect(dispatcher.application.applicationState == .notRunning)
        for (call, during, after) in Self.day {
            subscribers.forEach { $0.applications = [] }
            log.entries = []
            let outcome = await dispatcher.dispatch(call)
            #expect(outcome.reports.isEmpty, "\(call.event)")
            #expect(log.callers(of: call.event) == ["A", "B"], "\(call.event)")
            // What each subscriber saw as Application.applicationState during its call.
            #expect(subscribers.map { $0.applications.map(\.applicationState) } == [[during], [during]],
                    "\(call.event): seen during the call")
            #expect(outcome.applicationState == after, "\(call.event): outcome")
            #expect(dispatcher.applicationState == after, "\(call.event): dispatcher")
            #expect(dispatcher.stateCell.state == after, "\(call.event): what C plugins read")
        }
    }

    @Test("the legal path through C: a plugin reads the same states from adh.host.state/1 during each event")
    func legalPathThroughC() async throws {
        let descriptor = SubscriberPlugin.export(id: "com.example.state-tests", name: "State tests", version: "1.0",
                                                 subscribers: [StateRecorder.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
        let sink = RecordingSink()
        let state = ApplicationStateCell()
        let adapter = try CSubscriber(creating: StateRecorder.subscriberName, from: descriptor,
                                      context: bridgeContext("StateRecorder", sink: sink), state: state)
        defer { adapter.destroy() }
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter)],
                                             configuration: DispatchConfiguration(application: testApplication), state: state)
        for (call, _, _) in Self.day {
            #expect(await dispatcher.dispatch(call).reports.isEmpty, "\(call.event)")
        }
        #expect(sink.lines == Self.day.map { "[StateRecorder] info: \($0.call.event) while \($0.during)" })
    }

    @Test("willTerminate from active or inactive is delivered in that state and leaves the app terminated")
    func terminateFromForeground() {
        for (setUp, state) in [([EventCall.didBecomeActive.erased], ApplicationState.active),
                               ([EventCall.didBecomeActive.erased, EventCall.willResignActive.erased], .inactive)] {
            let (dispatcher, subscribers, _) = dispatcher(after: [EventCall.didFinishLaunching().erased] + setUp)
            let outcome = dispatcher.dispatchAtOnce(.willTerminate)
            #expect(outcome.reports.isEmpty)
            #expect(subscribers[0].applications.map(\.applicationState) == [state])
            #expect(outcome.applicationState == .terminated && dispatcher.applicationState == .terminated)
        }
    }

    @Test("a launch into the background (location, Bluetooth, fetch): UIKit launches in background and brings it forward with willEnterForeground")
    func backgroundLaunch() async {
        let (dispatcher, subscribers, log) = dispatcher(after: [])
        let launched = dispatcher.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(backgroundFetch: true)))
        #expect(launched.invocation == .background(.fetch))
        #expect(launched.reports.isEmpty)
        subscribers.forEach { $0.applications = [] }
        _ = await dispatcher.dispatch(.performFetch)
        let fetchState = subscribers[0].applications.map(\.applicationState)
        log.entries = []
        let forward = dispatcher.dispatchAtOnce(.willEnterForeground)
        #expect(launched.applicationState == .background)
        #expect(fetchState == [.background])
        #expect(forward.reports.isEmpty)
        #expect(log.callers(of: .willEnterForeground) == ["A", "B"])
    }

    // MARK: Every row's rule

    /// Where a dispatcher can be taken by legal events, named: the calls, and the state it is in.
    static let places: [(name: String, calls: [AnyEventCall], state: ApplicationState)] = [
        ("not running", [], .notRunning),
        ("launching (after willFinishLaunching)", [EventCall.willFinishLaunching().erased], .inactive),
        ("launched (after didFinishLaunching)", [EventCall.didFinishLaunching().erased], .inactive),
        ("active", [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased], .active),
        ("resigned", [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased,
                      EventCall.willResignActive.erased], .inactive),
        ("background", [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased,
                        EventCall.willResignActive.erased, EventCall.didEnterBackground.erased], .background),
        ("returning", [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased,
                       EventCall.willResignActive.erased, EventCall.didEnterBackground.erased,
                       EventCall.willEnterForeground.erased], .inactive),
        ("terminated", [EventCall.didFinishLaunching().erased, EventCall.willTerminate.erased], .terminated),
    ]

    @Test("every row's state rule, from every place: delivered in the state its rule says, or refused and reported",
          arguments: LifecycleEvent.allCases)
    func everyRow(_ event: LifecycleEvent) {
        let call = event.row.canonicalCalls[0]
        for place in Self.places {
            let (dispatcher, subscribers, log) = dispatcher(after: place.calls)
            #expect(dispatcher.applicationState == place.state, "\(place.name)")
            // What the row says: whether it may come here, the state it is delivered in, the state after.
            let expected: (during: ApplicationState, after: ApplicationState)?
            switch event.row.state {
            case .launch:
                let first = place.calls.isEmpty || (place.calls.map(\.event) == [.willFinishLaunching] && event == .didFinishLaunching)
                expected = first ? (.inactive, .inactive) : nil
            case .running:
                expected = [.inactive, .active, .background].contains(place.state) ? (place.state, place.state) : nil
            case .transition(let from, let to, let deliveredIn):
                expected = from.contains(place.state) ? (deliveredIn == .leaving ? place.state : to, to) : nil
            case .sceneConnect:
                // A scene connects unattached: the app's state stays what it was.
                expected = [.inactive, .active, .background].contains(place.state) ? (place.state, place.state) : nil
            case .sceneTransition, .scene:
                // No scene is connected at any of these places: refused, naming the scene.
                expected = nil
            }
            let outcome = dispatcher.dispatchAtOnce(call)
            if expected == nil, event.row.family === EventFamily.scene, [.inactive, .active, .background].contains(place.state) {
                #expect(outcome.reports == [.sceneStateViolation(event: event, scene: "main", sceneState: nil,
                                                                 expected: "scene.willConnect of \"main\" first (no scene of that identifier connected)")],
                        "\(event) \(place.name)")
                #expect(log.entries.isEmpty, "\(event) \(place.name)")
                #expect(dispatcher.applicationState == place.state, "\(event) \(place.name)")
            } else if let expected {
                #expect(outcome.reports.isEmpty, "\(event) \(place.name)")
                #expect(log.callers(of: event) == ["A", "B"], "\(event) \(place.name)")
                #expect(subscribers[0].applications.map(\.applicationState) == [expected.during], "\(event) \(place.name)")
                #expect(dispatcher.applicationState == expected.after, "\(event) \(place.name)")
            } else {
                expectRefused(outcome, event, in: place.state, dispatcher: dispatcher, log: log)
            }
        }
    }

    @Test("a refused event changes nothing: the next legal event is delivered in the state before it")
    func refusalLeavesNoTrace() async {
        let (dispatcher, subscribers, log) = dispatcher(after: [EventCall.didFinishLaunching().erased,
                                                                EventCall.didBecomeActive.erased,
                                                                EventCall.willResignActive.erased,
                                                                EventCall.didEnterBackground.erased])
        // From background: didBecomeActive and willResignActive are not UIKit's; each is refused.
        for call in [EventCall.didBecomeActive, .willResignActive, .didEnterBackground] {
            expectRefused(dispatcher.dispatchAtOnce(call), call.event, in: .background, dispatcher: dispatcher, log: log)
        }
        let back = await dispatcher.dispatch(.willEnterForeground)
        #expect(back.reports.isEmpty)
        #expect(subscribers[0].applications.map(\.applicationState) == [.background])
        #expect(dispatcher.applicationState == .inactive)
    }
}
