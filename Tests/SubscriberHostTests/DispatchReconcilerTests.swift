import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// The reconcilers as pure functions, the choices a manifest can make, and their validation.
@Suite("Dispatch: reconcilers")
struct DispatchReconcilerTests {
    static func named<Answer>(_ answers: [Answer]) -> [NamedAnswer<Answer>] {
        answers.enumerated().map { NamedAnswer(subscriber: "S\($0.offset)", answer: $0.element) }
    }

    @Test("anyTrue and allTrue, with the no-answer default when empty")
    func bools() {
        let anyTrue = Reconciler<Bool>.anyTrue, allTrue = Reconciler<Bool>.allTrue
        #expect(anyTrue.reconcile(Self.named([false, true, false]), event: .openURL, noAnswer: false).result == true)
        #expect(anyTrue.reconcile(Self.named([false, false]), event: .didFinishLaunching, noAnswer: true).result == false)
        #expect(anyTrue.reconcile([], event: .didFinishLaunching, noAnswer: true).result == true)
        #expect(allTrue.reconcile(Self.named([true, false, true]), event: .openURL, noAnswer: true).result == false)
        #expect(allTrue.reconcile(Self.named([true, true]), event: .openURL, noAnswer: false).result == true)
        #expect(allTrue.reconcile([], event: .shouldSaveSecureApplicationState, noAnswer: false).result == false)
    }

    @Test("firstAnswer takes the first answer in order")
    func firstAnswer() {
        #expect(Reconciler<Bool>.firstAnswer.reconcile(Self.named([false, true]), event: .openURL, noAnswer: true).result == false)
        #expect(Reconciler<String>.firstAnswer.reconcile([], event: .configurationForConnecting, noAnswer: "D").result == "D")
    }

    @Test("fetch precedence: the default and Expo's newData > failed > noData")
    func precedence() {
        let spec = Reconciler<BackgroundFetchResult>.precedence(ReconcilerChoice.defaultFetchPrecedence)
        let expo = Reconciler<BackgroundFetchResult>.precedence([.newData, .failed, .noData])
        let mixed = Self.named([BackgroundFetchResult.noData, .newData, .failed])
        #expect(spec.reconcile(mixed, event: .performFetch, noAnswer: .noData).result == .failed)
        #expect(expo.reconcile(mixed, event: .performFetch, noAnswer: .noData).result == .newData)
        #expect(spec.reconcile(Self.named([.noData, .newData]), event: .performFetch, noAnswer: .noData).result == .newData)
        #expect(expo.reconcile(Self.named([.noData, .failed]), event: .performFetch, noAnswer: .noData).result == .failed)
        #expect(spec.reconcile([], event: .performFetch, noAnswer: .noData).result == .noData)
    }

    @Test("intersection starts from all; empty falls back with a conflict report")
    func intersection() {
        let reconciler = Reconciler<InterfaceOrientationMask>.intersection
        let answers = Self.named([InterfaceOrientationMask.all, [.portrait, .landscapeLeft]])
        #expect(reconciler.reconcile(answers, event: .supportedInterfaceOrientations, noAnswer: .portrait)
                    == Reconciled(result: [.portrait, .landscapeLeft]))
        let conflicting = Self.named([InterfaceOrientationMask.portrait, .landscape])
        let decided = reconciler.reconcile(conflicting, event: .supportedInterfaceOrientations, noAnswer: .all)
        #expect(decided.result == .all)
        #expect(decided.reports == [.orientationConflict(event: .supportedInterfaceOrientations, answers: conflicting,
                                                         fallback: .all)])
        // An answer that is itself empty conflicts too.
        #expect(reconciler.reconcile(Self.named([InterfaceOrientationMask()]), event: .supportedInterfaceOrientations,
                                     noAnswer: .portrait).result == .portrait)
    }

    @Test("merge keeps the first of a duplicate key and reports each duplicate")
    func merge() {
        let replies: [JSONObject] = [["a": 1, "b": 2], ["b": 3, "c": 4], ["a": 5]]
        let decided = Reconciler<JSONObject>.merge.reconcile(Self.named(replies), event: .handleWatchKitExtensionRequest,
                                                            noAnswer: [:])
        #expect(decided.result == ["a": 1, "b": 2, "c": 4])
        #expect(decided.reports == [
            .duplicateKey(key: "b", subscriber: "S1", keptFrom: "S0", event: .handleWatchKitExtensionRequest),
            .duplicateKey(key: "a", subscriber: "S2", keptFrom: "S0", event: .handleWatchKitExtensionRequest),
        ])
    }

    @Test("each event's default reconciler")
    func defaults() {
        #expect(LifecycleEvent.openURL.defaultReconciler == .anyTrue)
        #expect(LifecycleEvent.didFinishLaunching.defaultReconciler == .anyTrue)
        #expect(LifecycleEvent.shouldAllowExtensionPointIdentifier.defaultReconciler == .allTrue)
        #expect(LifecycleEvent.shouldRestoreSecureApplicationState.defaultReconciler == .allTrue)
        #expect(LifecycleEvent.performFetch.defaultReconciler == .precedence([.failed, .newData, .noData]))
        #expect(LifecycleEvent.supportedInterfaceOrientations.defaultReconciler == .intersection)
        #expect(LifecycleEvent.configurationForConnecting.defaultReconciler == .firstAnswer)
        #expect(LifecycleEvent.handleWatchKitExtensionRequest.defaultReconciler == .merge)
        #expect(LifecycleEvent.didBecomeActive.defaultReconciler == nil)
        #expect(LifecycleEvent.handleEventsForBackgroundURLSession.defaultReconciler == nil)
    }

    @Test("a choice that does not fit the event's answer type is rejected with a clear message")
    func wrongType() {
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.reconcilerDoesNotFit(event: .performFetch, choice: .merge)) {
            try configuration.setReconciler(.merge, for: .performFetch)
        }
        let message = DispatchConfigurationError.reconcilerDoesNotFit(event: .performFetch, choice: .merge).description
        #expect(message == "reconciler for performFetch: expected one that fits a fetch result (a precedence list such as [failed, newData, noData], firstAnswer), found merge")
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.anyTrue, for: .supportedInterfaceOrientations) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.intersection, for: .openURL) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.precedence([.newData, .failed, .noData]), for: .openURL) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.allTrue, for: .configurationForConnecting) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.firstAnswer, for: .didBecomeActive) }
        #expect(DispatchConfigurationError.reconcilerDoesNotFit(event: .didBecomeActive, choice: .firstAnswer).description
                    == "reconciler for didBecomeActive: expected no reconciler (didBecomeActive has no answer to reconcile), found firstAnswer")
        #expect(throws: DispatchConfigurationError.invalidPrecedence(event: .performFetch, order: [.newData, .newData, .noData])) {
            try configuration.setReconciler(.precedence([.newData, .newData, .noData]), for: .performFetch)
        }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.precedence([.newData]), for: .performFetch) }
        #expect(configuration.reconcilers.isEmpty)
    }

    /// The choices that fit each kind of answer, written out here independently of the host's table.
    static func fitting(_ event: LifecycleEvent) -> [ReconcilerChoice] {
        switch event {
        case .willFinishLaunching, .didFinishLaunching, .openURL, .willContinueUserActivity, .continueUserActivity,
             .performActionForShortcutItem, .shouldAllowExtensionPointIdentifier, .shouldSaveSecureApplicationState,
             .shouldRestoreSecureApplicationState:
            [.anyTrue, .allTrue, .firstAnswer]
        case .performFetch, .didReceiveRemoteNotification: [.precedence([.newData, .failed, .noData]), .firstAnswer]
        case .supportedInterfaceOrientations: [.intersection, .firstAnswer]
        case .configurationForConnecting: [.firstAnswer]
        case .handleWatchKitExtensionRequest: [.merge, .firstAnswer]
        default: []
        }
    }

    @Test("validation follows each event's answer kind: every event, every choice", arguments: LifecycleEvent.allCases)
    func validationFromTheTable(_ event: LifecycleEvent) {
        let choices: [ReconcilerChoice] = [.anyTrue, .allTrue, .firstAnswer, .intersection, .merge,
                                           .precedence([.newData, .failed, .noData])]
        for choice in choices {
            var configuration = DispatchConfiguration(application: testApplication)
            let accepted = (try? configuration.setReconciler(choice, for: event)) != nil
            #expect(accepted == Self.fitting(event).contains(choice), "\(choice) for \(event)")
            #expect(configuration.reconciler(for: event) == (accepted ? choice : event.defaultReconciler))
        }
        #expect((event.defaultReconciler == nil) == Self.fitting(event).isEmpty)
    }

    @Test("allTrue on performFetch is refused, naming the reconcilers that fit a fetch result")
    func allTrueOnFetch() {
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.reconcilerDoesNotFit(event: .performFetch, choice: .allTrue)) {
            try configuration.setReconciler(.allTrue, for: .performFetch)
        }
        #expect(DispatchConfigurationError.reconcilerDoesNotFit(event: .performFetch, choice: .allTrue).description
                    == "reconciler for performFetch: expected one that fits a fetch result (a precedence list such as "
                    + "[failed, newData, noData], firstAnswer), found allTrue")
        #expect(DispatchConfigurationError.reconcilerDoesNotFit(event: .continueUserActivity, choice: .merge).expected
                    .hasSuffix("(anyTrue, allTrue, firstAnswer)"))
    }

    @Test("deadlines: only completion events, only positive")
    func deadlines() throws {
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.deadlineWithoutCompletion(event: .openURL)) {
            try configuration.setDeadline(.seconds(1), for: .openURL)
        }
        #expect(throws: DispatchConfigurationError.nonPositiveDeadline(event: .performFetch, deadline: .zero)) {
            try configuration.setDeadline(.zero, for: .performFetch)
        }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setDefaultDeadline(.seconds(-1)) }
        try configuration.setDeadline(.seconds(5), for: .performFetch)
        #expect(configuration.deadline(for: .performFetch) == .seconds(5))
        #expect(configuration.deadline(for: .handleWatchKitExtensionRequest) == .seconds(30))
    }

    @Test("a manifest's reconciler value: a name or a precedence list")
    func choiceFromJSON() throws {
        #expect(try ReconcilerChoice(json: "allTrue", path: "reconcilers.openURL") == .allTrue)
        #expect(try ReconcilerChoice(json: ["newData", "failed", "noData"], path: "r") == .precedence([.newData, .failed, .noData]))
        #expect(ReconcilerChoice.precedence([.newData, .failed, .noData]).json == ["newData", "failed", "noData"])
        #expect(throws: JSONShapeError(path: "reconcilers.performFetch[1]", expected: "one of newData, noData, failed",
                                       found: "the string \"sometimes\"")) {
            try ReconcilerChoice(json: ["newData", "sometimes"], path: "reconcilers.performFetch")
        }
        #expect(throws: JSONShapeError.self) { try ReconcilerChoice(json: "mostlyTrue", path: "r") }
        #expect(throws: JSONShapeError.self) { try ReconcilerChoice(json: 3, path: "r") }
    }
}

/// Alternative reconcilers chosen per event, through the dispatcher.
@MainActor
@Suite("Dispatch: chosen reconcilers")
struct DispatchChosenReconcilerTests {
    @Test("allTrue for openURL: one false vetoes")
    func allTrueOpenURL() throws {
        let configuration = try configuration { try $0.setReconciler(.allTrue, for: .openURL) }
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"], configuration: configuration)
        subscribers[0].answers[.openURL] = true
        subscribers[1].answers[.openURL] = false
        subscribers[2].answers[.openURL] = true
        #expect(dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))!.result == .bool(false))
        #expect(log.callers(of: .openURL) == ["A", "B", "C"])
    }

    @Test("firstAnswer for didFinishLaunching: the first opinion wins, everyone still called")
    func firstAnswerLaunch() throws {
        let configuration = try configuration { try $0.setReconciler(.firstAnswer, for: .didFinishLaunching) }
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"], configuration: configuration)
        subscribers[1].answers[.didFinishLaunching] = false
        subscribers[2].answers[.didFinishLaunching] = true
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching())!.result == .bool(false))
        #expect(log.callers(of: .didFinishLaunching) == ["A", "B", "C"])
    }

    @Test("anyTrue for shouldAllowExtensionPointIdentifier: one true allows")
    func anyTrueExtension() throws {
        let configuration = try configuration { try $0.setReconciler(.anyTrue, for: .shouldAllowExtensionPointIdentifier) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].answers[.shouldAllowExtensionPointIdentifier] = false
        subscribers[1].answers[.shouldAllowExtensionPointIdentifier] = true
        #expect(dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x"))!.result == .bool(true))
    }

    @Test("Expo's newData > failed > noData for performFetch")
    func expoPrecedence() async throws {
        let configuration = try configuration { try $0.setReconciler(.precedence([.newData, .failed, .noData]), for: .performFetch) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"], configuration: configuration)
        subscribers[0].fetch = .now(.failed)
        subscribers[1].fetch = .later(.newData)
        subscribers[2].fetch = .now(.noData)
        #expect(await dispatcher.dispatch(.performFetch).result == .fetchResult(.newData))
        // The other fetch event keeps its default.
        #expect(await dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: [:])).result == .fetchResult(.failed))
    }

    @Test("firstAnswer for orientations and WatchKit replies")
    func firstAnswerOthers() async throws {
        let configuration = try configuration {
            try $0.setReconciler(.firstAnswer, for: .supportedInterfaceOrientations)
            try $0.setReconciler(.firstAnswer, for: .handleWatchKitExtensionRequest)
        }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].orientations = .portrait
        subscribers[1].orientations = .landscape
        subscribers[0].reply = .later(["from": "A"])
        subscribers[1].reply = .now(["from": "B", "extra": true])
        let orientations = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))!
        #expect(orientations.result == .orientationMask(.portrait))
        #expect(orientations.reports.isEmpty)
        let reply = await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:]))
        #expect(reply.result == .dictionary(["from": "A"]))
        #expect(reply.reports.isEmpty)
    }
}
