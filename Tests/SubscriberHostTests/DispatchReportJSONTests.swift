import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// The erased path: EventCall in, EventReport out, and the JSON `apphost --json` prints.
@MainActor
@Suite("Dispatch: EventReport JSON")
struct DispatchReportJSONTests {
    @Test("a launch event: event, result, invocation, answers with subscriber/answer/ms, reports")
    func launchShape() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.willFinishLaunching] = true
        let url = URL(string: "news://article/42")!
        let report = await dispatcher.dispatch(.willFinishLaunching(options: LaunchOptions(url: url)))
        let json = report.json
        #expect(json.keys == ["event", "result", "invocation", "answers", "reports"])
        #expect(json["event"] == "willFinishLaunching")
        #expect(json["result"] == true)
        #expect(json["invocation"] == ["kind": "urlScheme", "url": "news://article/42"])
        let answers = json["answers"]?.arrayValue ?? []
        #expect(answers.count == 2)
        #expect(answers.compactMap { $0.objectValue?.keys } == [["subscriber", "answer", "ms"], ["subscriber", "answer", "ms"]])
        #expect(answers.map { $0["subscriber"] } == ["A", "B"])
        #expect(answers.map { $0["answer"] } == [true, .null])
        #expect(answers.allSatisfy { ($0["ms"]?.doubleValue ?? -1) >= 0 })
        #expect(json["reports"] == [])
    }

    @Test("a completion event with reports: no invocation key, reports with kind/event/subscriber/message")
    func reportsShape() async throws {
        let configuration = try configuration { try $0.setDeadline(.milliseconds(50), for: .performFetch) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].fetch = .twice(.newData, .newData)
        subscribers[1].fetch = .never
        let json = await dispatcher.dispatch(.performFetch).json
        #expect(json.keys == ["event", "result", "answers", "reports"])
        #expect(json["result"] == "failed")
        #expect(json["answers"]?.arrayValue?.map { $0["answer"] } == ["newData", "failed"])
        let reports = try #require(json["reports"]?.arrayValue)
        #expect(reports.map { $0["kind"] } == ["duplicateCompletion", "late"])
        #expect(reports.map { $0["subscriber"] } == ["A", "B"])
        #expect(reports.allSatisfy { $0["event"] == "performFetch" && $0["message"]?.stringValue != nil })
        #expect(reports[1]["message"] == "late: B did not complete performFetch before its deadline")
    }

    @Test("results as JSON: orientations, configuration, merge, restoration, notifications")
    func resultEncodings() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"])
        subscribers[0].orientations = [.portrait, .landscapeRight]
        subscribers[0].reply = .now(["k": "v"])
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .now(["r"])
        #expect(await dispatcher.dispatch(.supportedInterfaceOrientations(idiom: .phone)).result == ["portrait", "landscapeRight"])
        #expect(await dispatcher.dispatch(.configurationForConnecting(sceneRole: "x")).result == "Default Configuration")
        #expect(await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:])).result == ["k": "v"])
        #expect(await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "t"))).result
                    == ["handled": true, "restorableObjects": ["r"]])
        #expect(await dispatcher.dispatch(.didEnterBackground).result == .null)
        #expect(await dispatcher.dispatch(.shouldSaveSecureApplicationState).result == false)
    }

    @Test("an orientation conflict report carries the answers and the fallback")
    func conflictJSON() {
        let report = DispatchReport.orientationConflict(
            event: .supportedInterfaceOrientations,
            answers: [NamedAnswer(subscriber: "A", answer: .portrait), NamedAnswer(subscriber: "B", answer: .landscapeLeft)],
            fallback: .all)
        #expect(report.json["answers"] == [["subscriber": "A", "answer": ["portrait"]], ["subscriber": "B", "answer": ["landscapeLeft"]]])
        #expect(report.json["fallback"] == ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight"])
        #expect(report.description == "orientation conflict: supportedInterfaceOrientations answers have no orientation in common (A [portrait], B [landscapeLeft]); delivered the default [portrait, portraitUpsideDown, landscapeLeft, landscapeRight]")
    }

    @Test("every wire name has an EventCall that dispatch delivers to that event")
    func everyEventDispatches() async throws {
        let lines = [
            #"{"event": "willFinishLaunching", "launchOptions": {"url": "news://a"}}"#,
            #"{"event": "didFinishLaunching"}"#, #"{"event": "didBecomeActive"}"#, #"{"event": "willResignActive"}"#,
            #"{"event": "didEnterBackground"}"#, #"{"event": "willEnterForeground"}"#, #"{"event": "willTerminate"}"#,
            #"{"event": "didReceiveMemoryWarning"}"#, #"{"event": "significantTimeChange"}"#,
            #"{"event": "protectedDataWillBecomeUnavailable"}"#, #"{"event": "protectedDataDidBecomeAvailable"}"#,
            #"{"event": "didRegisterForRemoteNotifications", "deviceToken": "00ff"}"#,
            #"{"event": "didFailToRegisterForRemoteNotifications", "error": {"domain": "push", "code": 3}}"#,
            #"{"event": "didReceiveRemoteNotification", "userInfo": {"aps": {}}}"#, #"{"event": "performFetch"}"#,
            #"{"event": "handleEventsForBackgroundURLSession", "identifier": "s"}"#,
            #"{"event": "openURL", "url": "news://a", "options": {"sourceApplication": "x"}}"#,
            #"{"event": "willContinueUserActivity", "activityType": "t"}"#,
            #"{"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://e.com/a"}"#,
            #"{"event": "didUpdateUserActivity", "activityType": "t"}"#,
            #"{"event": "didFailToContinueUserActivity", "activityType": "t", "error": {"domain": "d"}}"#,
            #"{"event": "performActionForShortcutItem", "type": "s", "title": "Search"}"#,
            #"{"event": "supportedInterfaceOrientations", "idiom": "pad"}"#,
            #"{"event": "shouldAllowExtensionPointIdentifier", "identifier": "k"}"#,
            #"{"event": "shouldSaveSecureApplicationState"}"#, #"{"event": "shouldRestoreSecureApplicationState"}"#,
            #"{"event": "configurationForConnecting", "sceneRole": "r"}"#, #"{"event": "didDiscardSceneSessions", "count": 3}"#,
            #"{"event": "handleWatchKitExtensionRequest", "userInfo": {"q": 1}}"#,
        ]
        let (dispatcher, _, log) = makeDispatcher(["A"])
        var seen: [LifecycleEvent] = []
        for (index, line) in lines.enumerated() {
            let call = try EventCall(json: try JSONValue(parsing: line), path: "line \(index + 1)")
            let report = await dispatcher.dispatch(call)
            #expect(report.event == call.event)
            seen.append(report.event)
        }
        #expect(seen == LifecycleEvent.allCases)
        #expect(log.entries == LifecycleEvent.allCases.map { "A:\($0.name)" })
    }

    @Test("event script arguments are read into the call, bad ones name their key path")
    func eventCallParsing() throws {
        func call(_ text: String) throws -> EventCall { try EventCall(json: try JSONValue(parsing: text), path: "line 3") }
        #expect(try call(#"{"event": "didRegisterForRemoteNotifications", "deviceToken": "0aFF"}"#)
                    == .didRegisterForRemoteNotifications(deviceToken: Data([0x0A, 0xFF])))
        #expect(try call(#"{"event": "performActionForShortcutItem", "type": "s", "userInfo": {"a": 1}}"#)
                    == .performActionForShortcutItem(ShortcutItem(type: "s", userInfo: ["a": 1])))
        #expect(try call(#"{"event": "supportedInterfaceOrientations"}"#) == .supportedInterfaceOrientations(idiom: .phone))
        #expect(try call(#"{"event": "didFailToContinueUserActivity", "activityType": "t", "error": {"domain": "d", "code": 2, "message": "m"}}"#)
                    == .didFailToContinueUserActivity(activityType: "t", error: LifecycleError(domain: "d", code: 2, message: "m")))

        #expect(throws: JSONShapeError(path: "line 3.event", expected: "an event wire name such as performFetch",
                                       found: "the string \"fetch\"")) { try call(#"{"event": "fetch"}"#) }
        #expect(throws: JSONShapeError(path: "line 3.event", expected: "a string", found: "nothing")) { try call("{}") }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "performFetch", "extra": 1}"#) }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "openURL"}"#) }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "openURL", "url": "not a url"}"#) }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "didRegisterForRemoteNotifications", "deviceToken": "abc"}"#) }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "supportedInterfaceOrientations", "idiom": "watch"}"#) }
        #expect(throws: JSONShapeError.self) { try call(#"{"event": "didDiscardSceneSessions", "count": -1}"#) }
        #expect(throws: JSONShapeError(path: "line 3.mood", expected: "one of the known keys (activityType, userInfo, webpageURL)",
                                       found: "an unknown key")) {
            try call(#"{"event": "continueUserActivity", "activityType": "t", "mood": 1}"#)
        }
    }
}
