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

    @Test("anyTrue and allTrue, with the nobody-answers value when empty")
    func bools() throws {
        let anyTrue = try OptionalBoolAnswer.reconciler(.anyTrue), allTrue = try OptionalBoolAnswer.reconciler(.allTrue)
        #expect(anyTrue.reconcile(Self.named([false, true, false]), event: .openURL, nobody: false).result == true)
        #expect(anyTrue.reconcile(Self.named([false, false]), event: .didFinishLaunching, nobody: true).result == false)
        #expect(anyTrue.reconcile([], event: .didFinishLaunching, nobody: true).result == true)
        #expect(allTrue.reconcile(Self.named([true, false, true]), event: .openURL, nobody: true).result == false)
        #expect(allTrue.reconcile(Self.named([true, true]), event: .openURL, nobody: false).result == true)
        #expect(allTrue.reconcile([], event: .shouldSaveSecureApplicationState, nobody: false).result == false)
    }

    @Test("always: the constant whatever the answers (a Bool event that never blocks, or always blocks)")
    func always() throws {
        let always = try OptionalBoolAnswer.reconciler(.always(true))
        #expect(always.reconcile(Self.named([false, false]), event: .openURL, nobody: false).result == true)
        #expect(always.reconcile([], event: .openURL, nobody: false).result == true)
        #expect(try OptionalBoolAnswer.reconciler(.always(false)).reconcile(Self.named([true]), event: .openURL, nobody: true).result == false)
        #expect(ReconcilerChoice.always(true).json == ["always": true])
        #expect(try ReconcilerChoice(json: ["always": false], path: "r") == .always(false))
        #expect(ReconcilerChoice.always(true).description == "always true")
    }

    @Test("firstAnswer takes the first answer in order")
    func firstAnswer() throws {
        #expect(try OptionalBoolAnswer.reconciler(.firstAnswer).reconcile(Self.named([false, true]), event: .openURL, nobody: true).result == false)
        #expect(try ConfigurationNameAnswer.reconciler(.firstAnswer).reconcile([], event: .configurationForConnecting, nobody: "D").result == "D")
    }

    @Test("fetch precedence: the default and Expo's newData > failed > noData")
    func precedence() throws {
        let spec = try FetchResultAnswer.reconciler(.precedence(ReconcilerChoice.defaultFetchPrecedence))
        let expo = try FetchResultAnswer.reconciler(.precedence([.newData, .failed, .noData]))
        let mixed = Self.named([BackgroundFetchResult.noData, .newData, .failed])
        #expect(spec.reconcile(mixed, event: .performFetch, nobody: .noData).result == .failed)
        #expect(expo.reconcile(mixed, event: .performFetch, nobody: .noData).result == .newData)
        #expect(spec.reconcile(Self.named([.noData, .newData]), event: .performFetch, nobody: .noData).result == .newData)
        #expect(expo.reconcile(Self.named([.noData, .failed]), event: .performFetch, nobody: .noData).result == .failed)
        #expect(spec.reconcile([], event: .performFetch, nobody: .noData).result == .noData)
    }

    @Test("intersection starts from all; empty falls back with a conflict report, unless empty is allowed")
    func intersection() throws {
        let reconciler = try OrientationMaskAnswer.reconciler(.intersection)
        let answers = Self.named([InterfaceOrientationMask.all, [.portrait, .landscapeLeft]])
        #expect(reconciler.reconcile(answers, event: .supportedInterfaceOrientations, nobody: .portrait)
                    == Reconciled(result: [.portrait, .landscapeLeft]))
        let conflicting = Self.named([InterfaceOrientationMask.portrait, .landscape])
        let decided = reconciler.reconcile(conflicting, event: .supportedInterfaceOrientations, nobody: .all)
        #expect(decided.result == .all)
        #expect(decided.reports == [.orientationConflict(event: .supportedInterfaceOrientations, answers: conflicting,
                                                         fallback: .all)])
        // An answer that is itself empty conflicts too.
        #expect(reconciler.reconcile(Self.named([InterfaceOrientationMask()]), event: .supportedInterfaceOrientations,
                                     nobody: .portrait).result == .portrait)
        // Allowing empty (Expo's intersection) delivers it, still reported: UIKit refuses an empty mask.
        let allowing = try OrientationMaskAnswer.reconciler(.intersectionAllowingEmpty)
        let empty = allowing.reconcile(conflicting, event: .supportedInterfaceOrientations, nobody: .all)
        #expect(empty.result == [])
        #expect(empty.reports.map(\.description) == [
            "orientation conflict: supportedInterfaceOrientations answers have no orientation in common (S0 [portrait], "
                + "S1 [landscapeLeft, landscapeRight]); delivered the empty mask (intersectionAllowingEmpty)",
        ])
        #expect(allowing.reconcile([], event: .supportedInterfaceOrientations, nobody: .portrait).result == .portrait)
    }

    @Test("merge keeps the first of a duplicate key and reports each duplicate")
    func merge() throws {
        let replies: [JSONObject] = [["a": 1, "b": 2], ["b": 3, "c": 4], ["a": 5]]
        let decided = try DictionaryAnswer.reconciler(.merge).reconcile(Self.named(replies), event: .handleWatchKitExtensionRequest,
                                                                         nobody: [:])
        #expect(decided.result == ["a": 1, "b": 2, "c": 4])
        #expect(decided.reports == [
            .duplicateKey(key: "b", subscriber: "S1", keptFrom: "S0", event: .handleWatchKitExtensionRequest),
            .duplicateKey(key: "a", subscriber: "S2", keptFrom: "S0", event: .handleWatchKitExtensionRequest),
        ])
    }

    @Test("union of presentation options: every option any subscriber asked for")
    func union() throws {
        let union = try PresentationOptionsAnswer.reconciler(.union)
        let answers = Self.named([NotificationPresentationOptions.banner, [.sound, .badge], []])
        #expect(union.reconcile(answers, event: .willPresentNotification, nobody: []).result == [.banner, .sound, .badge])
        #expect(union.reconcile([], event: .willPresentNotification, nobody: .list).result == .list)
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
        #expect(LifecycleEvent.willPresentNotification.defaultReconciler == .union)
        #expect(LifecycleEvent.didBecomeActive.defaultReconciler == nil)
        #expect(LifecycleEvent.handleEventsForBackgroundURLSession.defaultReconciler == nil)
        #expect(LifecycleEvent.didReceiveNotificationResponse.defaultReconciler == nil)
    }

    @Test("a choice that does not fit the event's answer type is rejected with a clear message")
    func wrongType() {
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.merge, for: .performFetch) }
        do {
            try configuration.setReconciler(.merge, for: .performFetch)
        } catch {
            #expect(error.description == "reconciler for performFetch: expected a precedence list such as [failed, newData, noData] or firstAnswer, found the string \"merge\"")
        }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.anyTrue, for: .supportedInterfaceOrientations) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.intersection, for: .openURL) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.precedence([.newData, .failed, .noData]), for: .openURL) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.allTrue, for: .configurationForConnecting) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.firstAnswer, for: .didBecomeActive) }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.union, for: .openURL) }
        do {
            try configuration.setReconciler(.firstAnswer, for: .didBecomeActive)
        } catch {
            #expect(error.description == "reconciler for didBecomeActive: expected no reconciler (every subscriber is called, nothing is combined), found the string \"firstAnswer\"")
        }
        do {
            try configuration.setReconciler(.precedence([.newData, .newData, .noData]), for: .performFetch)
            Issue.record("a precedence list naming a result twice was accepted")
        } catch {
            #expect(error.expected == "a fetch result not listed before")
            #expect(error.found == "\"newData\" again")
        }
        #expect(throws: DispatchConfigurationError.self) { try configuration.setReconciler(.precedence([.newData]), for: .performFetch) }
        #expect(configuration.reconcilers.isEmpty)
    }

    /// The choices that fit each answer shape, written out here independently of the shapes.
    static let fittingByShape: [String: [ReconcilerChoice]] = [
        "OptionalBoolAnswer": [.anyTrue, .allTrue, .firstAnswer, .always(true), .always(false)],
        "BoolCompletionAnswer": [.anyTrue, .allTrue, .firstAnswer, .always(true), .always(false)],
        "RestorationAnswer": [.anyTrue, .allTrue, .firstAnswer, .always(true), .always(false)],
        "FetchResultAnswer": [.precedence([.newData, .failed, .noData]), .firstAnswer],
        "OrientationMaskAnswer": [.intersection, .intersectionAllowingEmpty, .firstAnswer],
        "ConfigurationNameAnswer": [.firstAnswer],
        "UserActivityAnswer": [.firstAnswer],
        "DictionaryAnswer": [.merge, .firstAnswer],
        "PresentationOptionsAnswer": [.union, .firstAnswer],
        "NoAnswer": [],
        "DoneAnswer": [],
    ]

    @Test("validation follows each event's answer shape: every event, every choice", arguments: LifecycleEvent.allCases)
    func validationFromTheTable(_ event: LifecycleEvent) throws {
        let fitting = try #require(Self.fittingByShape[event.row.answerShape], "a new answer shape: \(event.row.answerShape)")
        let choices: [ReconcilerChoice] = [.anyTrue, .allTrue, .firstAnswer, .intersection, .intersectionAllowingEmpty, .merge,
                                           .union, .always(true), .always(false), .precedence([.newData, .failed, .noData])]
        for choice in choices {
            var configuration = DispatchConfiguration(application: testApplication)
            let accepted = (try? configuration.setReconciler(choice, for: event)) != nil
            #expect(accepted == fitting.contains(choice), "\(choice) for \(event)")
            #expect(configuration.reconciler(for: event) == (accepted ? choice : event.defaultReconciler))
        }
        #expect((event.defaultReconciler == nil) == fitting.isEmpty)
    }

    @Test("allTrue on performFetch is refused, naming the reconcilers that fit a fetch result")
    func allTrueOnFetch() {
        var configuration = DispatchConfiguration(application: testApplication)
        do {
            try configuration.setReconciler(.allTrue, for: .performFetch)
            Issue.record("allTrue was accepted for performFetch")
        } catch {
            #expect(error == .reconcilerDoesNotFit(event: .performFetch, expected: "a precedence list such as [failed, newData, noData] or firstAnswer",
                                                   found: "the string \"allTrue\""))
        }
        do {
            try configuration.setReconciler(.merge, for: .continueUserActivity)
        } catch {
            #expect(error.expected == "anyTrue, allTrue, firstAnswer, always true or always false")
        }
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
        try configuration.setDeadline(.seconds(2), for: .willPresentNotification)
        #expect(configuration.deadline(for: .performFetch) == .seconds(5))
        #expect(configuration.deadline(for: .willPresentNotification) == .seconds(2))
        #expect(configuration.deadline(for: .handleWatchKitExtensionRequest) == .seconds(30))
    }

    @Test("a manifest's reconciler value: a name, a precedence list or a constant")
    func choiceFromJSON() throws {
        #expect(try ReconcilerChoice(json: "allTrue", path: "reconcilers.openURL") == .allTrue)
        #expect(try ReconcilerChoice(json: ["newData", "failed", "noData"], path: "r") == .precedence([.newData, .failed, .noData]))
        #expect(ReconcilerChoice.precedence([.newData, .failed, .noData]).json == ["newData", "failed", "noData"])
        #expect(try ReconcilerChoice(json: ["always": true], path: "r") == .always(true))
        // A name is read as one; whether an event has it is the event's to say.
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.self) {
            try configuration.setReconciler(ReconcilerChoice(json: "mostlyTrue", path: "r"), for: .openURL)
        }
        #expect(throws: JSONShapeError.self) { try ReconcilerChoice(json: 3, path: "r") }
        #expect(throws: JSONShapeError.self) { try ReconcilerChoice(json: ["always": true, "x": 1], path: "r") }
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
        #expect(dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!)).result == false)
        #expect(log.callers(of: .openURL) == ["A", "B", "C"])
    }

    @Test("firstAnswer for didFinishLaunching: the first opinion wins, everyone still called")
    func firstAnswerLaunch() throws {
        let configuration = try configuration { try $0.setReconciler(.firstAnswer, for: .didFinishLaunching) }
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"], configuration: configuration, launched: false)
        subscribers[1].answers[.didFinishLaunching] = false
        subscribers[2].answers[.didFinishLaunching] = true
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).result == false)
        #expect(log.callers(of: .didFinishLaunching) == ["A", "B", "C"])
    }

    @Test("anyTrue for shouldAllowExtensionPointIdentifier: one true allows")
    func anyTrueExtension() throws {
        let configuration = try configuration { try $0.setReconciler(.anyTrue, for: .shouldAllowExtensionPointIdentifier) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].answers[.shouldAllowExtensionPointIdentifier] = false
        subscribers[1].answers[.shouldAllowExtensionPointIdentifier] = true
        #expect(dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x")).result == true)
    }

    @Test("Expo's newData > failed > noData for performFetch")
    func expoPrecedence() async throws {
        let configuration = try configuration { try $0.setReconciler(.precedence([.newData, .failed, .noData]), for: .performFetch) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"], configuration: configuration)
        subscribers[0].fetch = .now(.failed)
        subscribers[1].fetch = .later(.newData)
        subscribers[2].fetch = .now(.noData)
        #expect(await dispatcher.dispatch(.performFetch).result == .newData)
        // The other fetch event keeps its default.
        #expect(await dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: [:])).result == .failed)
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
        let orientations = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))
        #expect(orientations.result == .portrait)
        #expect(orientations.reports.isEmpty)
        let reply = await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:]))
        #expect(reply.result == ["from": "A"])
        #expect(reply.reports.isEmpty)
    }
}
