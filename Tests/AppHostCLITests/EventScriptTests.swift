import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("Event scripts")
struct EventScriptTests {
    @Test("one event per line, in order; blank lines and # or // comments skipped")
    func readsLines() throws {
        let text = """
            # launch from a custom-scheme URL
            {"event": "didFinishLaunching", "launchOptions": {"url": "news://article/7"}}

               // indented comment
            {"event": "openURL", "url": "news://article/8", "options": {"sourceApplication": "com.apple.mobilesafari"}}
            \t
            {"event": "performFetch"}
            """
        let calls = try EventScript.parse(text, file: "s.jsonl")
        #expect(calls == [
            EventCall.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://article/7"))).erased,
            EventCall.openURL(url: URL(string: "news://article/8")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")).erased,
            EventCall.performFetch.erased,
        ])
    }

    @Test("CRLF line ends and a missing final newline read the same")
    func lineEnds() throws {
        let calls = try EventScript.parse("{\"event\": \"didBecomeActive\"}\r\n{\"event\": \"willTerminate\"}", file: "s")
        #expect(calls == [EventCall.didBecomeActive.erased, EventCall.willTerminate.erased])
        #expect(try EventScript.parse("", file: "s").isEmpty)
    }

    @Test("blank and comment lines told apart from lines to read at every edge: CR, spaces and tabs, one slash")
    func blankAndCommentEdges() throws {
        /// What a line is, by the rule: blank or comment (skipped), else read (a call or an error).
        func skipped(_ line: [UInt8]) -> Bool {
            var line = line[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let content = line.drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            return content.isEmpty || content.first == UInt8(ascii: "#") || content.starts(with: Array("//".utf8))
        }
        let pieces = ["", " ", "\t", "\r", "#", "/", "//", "x", "{", "\u{0}", "é"]
        var lines: [String] = []
        for a in pieces { for b in pieces { for c in pieces { lines.append(a + b + c) } } }
        lines += [#"  {"event": "didBecomeActive"}\#r"#, "\t// {\"event\": \"didBecomeActive\"}", " / /", "\r\r", "#\r"]
        for line in lines {
            let bytes = Array(line.utf8)
            do {
                let read = try EventScript.entry(in: bytes[...], number: 3, file: "s")
                #expect((read == nil) == skipped(bytes), "\(bytes)")
                // The rule others use to tell event lines (the benchmark's tour) is the reader's.
                #expect(EventScript.isEventLine(line) == (read != nil), "\(bytes)")
            } catch {
                #expect(EventScript.isEventLine(line), "\(bytes)")
                #expect(!skipped(bytes) && error.line == 3, "\(bytes)")
            }
        }
        // A line's CR is not part of what is read: the same call with and without it, spaces kept before it.
        let call = try #require(try EventScript.entry(in: Array(#"  {"event": "didBecomeActive"}"#.utf8)[...], number: 1, file: "s"))
        let withCR = try #require(try EventScript.entry(in: Array("  {\"event\": \"didBecomeActive\"}\r".utf8)[...], number: 1, file: "s"))
        #expect(call.call == withCR.call)
    }

    @Test("a bad argument names the file, the line (comments and blanks counted) and the key path")
    func badArgument() {
        let text = "# header\n\n{\"event\": \"performFetch\"}\n{\"event\": \"openURL\", \"url\": \"news://a\", \"options\": {\"openInPlace\": \"yes\"}}\n"
        #expect(throws: EventScriptError(file: "events.jsonl", line: 4, location: "options.openInPlace",
                                         expected: "true or false", found: "the string \"yes\"")) {
            try EventScript.parse(text, file: "events.jsonl")
        }
        let error = EventScriptError(file: "events.jsonl", line: 4, location: "options.openInPlace",
                                     expected: "true or false", found: "the string \"yes\"")
        #expect(error.description == "events.jsonl:4: options.openInPlace: expected true or false, found the string \"yes\"")
    }

    @Test("the whole script is checked: a bad last line fails it even after good ones")
    func wholeScriptChecked() {
        var lines = Array(repeating: #"{"event": "didBecomeActive"}"#, count: 6)
        lines.append(#"{"event": "performFetch", "extra": 1}"#)
        #expect {
            try EventScript.parse(lines.joined(separator: "\n"), file: "e")
        } throws: { error in
            let error = error as? EventScriptError
            return error?.line == 7 && error?.location == "extra"
        }
    }

    @Test("syntax errors give the column; non-objects and unknown events say what they found")
    func malformedLines() {
        #expect(throws: EventScriptError.self) { try EventScript.parse(#"{"event": "performFetch""#, file: "e") }
        do {
            _ = try EventScript.parse("{\"event\": \"didBecomeActive\"}\n{\"event\" \"x\"}", file: "e")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.line == 2)
            #expect(error.location == "column 10")
        }
        #expect(throws: EventScriptError(file: "e", line: 1, location: "(root)", expected: "an object", found: "an array")) {
            try EventScript.parse("[1]", file: "e")
        }
        #expect(throws: EventScriptError(file: "e", line: 1, location: "event",
                                         expected: "an event wire name such as performFetch", found: "the string \"launch\"")) {
            try EventScript.parse(#"{"event": "launch"}"#, file: "e")
        }
        #expect(throws: EventScriptError(file: "e", line: 1, location: "event", expected: "a string", found: "nothing")) {
            try EventScript.parse(#"{"url": "news://a"}"#, file: "e")
        }
    }

    @Test("read(from:) names a missing file; the shipped tour script reads")
    func files() throws {
        #expect(throws: EventScriptError(file: "/nonexistent/e.jsonl", line: nil, location: "",
                                         expected: "a readable event script", found: "nothing at that path")) {
            try EventScript.read(from: "/nonexistent/e.jsonl")
        }
        #expect(EventScriptError(file: "e", line: nil, location: "", expected: "x", found: "y").description == "e: expected x, found y")
        let calls = try EventScript.read(from: AppHostProcess.manifest("events/tour.jsonl"))
        #expect(calls.first?.event == .willFinishLaunching && calls.count > 10)
    }

    @Test("every event's calls read back from the script objects they write, whatever their family")
    func everyEventRoundTrips() throws {
        for event in LifecycleEvent.allCases {
            let calls = event.row.canonicalCalls
            #expect(!calls.isEmpty, "\(event)")
            for call in calls {
                let line = JSONValue.object(call.scriptJSON).serialized()
                #expect(try EventScript.parse(line, file: "e") == [call], "\(line)")
            }
        }
    }

    @Test("every event of the table refuses a key it does not know, and names the keys it does")
    func everyEventRefusesUnknownKeys() throws {
        for event in LifecycleEvent.allCases {
            let call = try #require(event.row.canonicalCalls.first, "\(event)")
            var object = call.scriptJSON
            object["unknownKey"] = .number(1)
            #expect {
                try EventScript.parse(JSONValue.object(object).serialized(), file: "e")
            } throws: { error in
                guard let error = error as? EventScriptError else { return false }
                return error.location == "unknownKey" && error.expected.hasPrefix("one of the known keys (") && error.expected.contains("event")
            }
        }
    }

    @Test("arguments left out take their documented defaults")
    func defaults() throws {
        let error = LifecycleError(domain: "d", code: 3, message: "m")
        let activity = UserActivity(activityType: "t", webpageURL: URL(string: "https://a.example/p"), userInfo: ["k": 1])
        let cases: [(line: String, call: AnyEventCall)] = [
            (#"{"event": "willFinishLaunching"}"#, EventCall.willFinishLaunching(options: LaunchOptions()).erased),
            (#"{"event": "didFinishLaunching", "launchOptions": {"url": "news://a"}}"#,
             EventCall.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://a"))).erased),
            (#"{"event": "didRegisterForRemoteNotifications", "deviceToken": "0aFf"}"#,
             EventCall.didRegisterForRemoteNotifications(deviceToken: Data([0x0A, 0xFF])).erased),
            (#"{"event": "didFailToRegisterForRemoteNotifications", "error": {"domain": "d", "code": 3, "message": "m"}}"#,
             EventCall.didFailToRegisterForRemoteNotifications(error: error).erased),
            (#"{"event": "didReceiveRemoteNotification"}"#, EventCall.didReceiveRemoteNotification(userInfo: [:]).erased),
            (#"{"event": "configurationForConnecting"}"#,
             EventCall.configurationForConnecting(sceneRole: "UIWindowSceneSessionRoleApplication").erased),
            (#"{"event": "openURL", "url": "news://a"}"#, EventCall.openURL(url: URL(string: "news://a")!, options: OpenURLOptions()).erased),
            (#"{"event": "continueUserActivity", "activityType": "t", "webpageURL": "https://a.example/p", "userInfo": {"k": 1}}"#,
             EventCall.continueUserActivity(activity).erased),
            (#"{"event": "supportedInterfaceOrientations"}"#, EventCall.supportedInterfaceOrientations(idiom: .phone).erased),
            (#"{"event": "didDiscardSceneSessions"}"#, EventCall.didDiscardSceneSessions(count: 1).erased),
        ]
        for (line, call) in cases {
            #expect(try EventScript.parse(line, file: "e") == [call], "\(line)")
        }
    }

    @Test("missing, malformed and unknown arguments name their key path")
    func argumentErrors() {
        let cases: [(line: String, location: String, expected: String, found: String)] = [
            (#"{"event": "openURL"}"#, "url", "an absolute URL", "nothing"),
            (#"{"event": "handleEventsForBackgroundURLSession"}"#, "identifier", "a string", "nothing"),
            (#"{"event": "willContinueUserActivity", "activityType": 1}"#, "activityType", "a string", "the number 1"),
            (#"{"event": "didRegisterForRemoteNotifications", "deviceToken": "abc"}"#, "deviceToken",
             "an even number of hexadecimal digits", "the string \"abc\""),
            (#"{"event": "didFailToRegisterForRemoteNotifications"}"#, "error",
             "an error {\"domain\", \"code\", \"message\"}", "nothing"),
            (#"{"event": "didFailToContinueUserActivity", "activityType": "t", "error": {"domain": "d", "x": 1}}"#, "error.x",
             "one of the known keys (code, domain, message)", "an unknown key"),
            (#"{"event": "supportedInterfaceOrientations", "idiom": "watch"}"#, "idiom",
             "one of \(UserInterfaceIdiom.allCases.map(\.name).joined(separator: ", "))", "the string \"watch\""),
            (#"{"event": "didDiscardSceneSessions", "count": -1}"#, "count", "a count of 0 or more", "the number -1"),
            (#"{"event": "didBecomeActive", "url": "news://a"}"#, "url", "one of the known keys (event)", "an unknown key"),
            (#"{"event": "configurationForConnecting", "role": "r"}"#, "role", "one of the known keys (event, sceneRole)", "an unknown key"),
        ]
        for (line, location, expected, found) in cases {
            #expect(throws: EventScriptError(file: "e", line: 1, location: location, expected: expected, found: found), "\(line)") {
                try EventScript.parse(line, file: "e")
            }
        }
    }

    @Test("a URL URL(string:) refuses or finds no scheme in is the same one-line error as before URLs were kept as their text; one it accepts is read as it reads it")
    func badURLErrorLines() throws {
        // The found parts as the host printed them before (`apphost --json`, openURL and continueUserActivity lines).
        let refused = ["not a url", "", "news", "//host/path", "http://[::1", "a b:c", "é://x", "1http://x",
                       "http://exa mple.com/%zz", "news.example.com/a very long path that is cut after forty"]
        for text in refused {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            let url = JSONValue.string(text).serialized()
            #expect(throws: EventScriptError(file: "e", line: 1, location: "url", expected: "an absolute URL",
                                             found: "the string \"\(shown)\"")) {
                try EventScript.parse(#"{"event": "openURL", "url": \#(url)}"#, file: "e")
            }
            #expect(throws: EventScriptError(file: "e", line: 1, location: "webpageURL", expected: "an absolute URL",
                                             found: "the string \"\(shown)\"")) {
                try EventScript.parse(#"{"event": "continueUserActivity", "activityType": "t", "webpageURL": \#(url)}"#, file: "e")
            }
        }
        do {
            _ = try EventScript.parse(#"{"event": "openURL", "url": "not a url"}"#, file: "e")
            Issue.record("a URL without a scheme was accepted")
        } catch {
            #expect(error.description == #"e:1: url: expected an absolute URL, found the string "not a url""#)
        }
        // Accepted by URL(string:) but not kept as text (a space, an empty scheme): read as it reads them.
        for text in ["https://news.example.com/article/42 ", ":x", "news://a/é", "http://[::1]/p", "news://a/b c"] {
            let url = JSONValue.string(text).serialized()
            let calls = try EventScript.parse(#"{"event": "openURL", "url": \#(url)}"#, file: "e")
            let value = try #require(calls.first?.arguments(as: OpenURLArguments.Value.self), "\(text)")
            let parsed = try #require(URL(string: text), "\(text)")
            #expect(!value.absoluteURL.isKeptAsText && value.url == parsed && value.absoluteURL.absoluteString == parsed.absoluteString)
        }
    }

    @Test("the default scenario: a cold launch from a universal link through terminate")
    func defaultScenario() {
        #expect(DefaultScenario.calls.map(\.event) == [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .openURL, .didReceiveRemoteNotification,
            .willPresentNotification, .didReceiveNotificationResponse, .willResignActive, .didEnterBackground, .performFetch, .willEnterForeground, .didBecomeActive,
            .didReceiveMemoryWarning, .willTerminate,
        ])
        guard let options = DefaultScenario.calls[1].arguments(as: LaunchOptions.self) else { return #expect(Bool(false)) }
        #expect(LaunchInvocation(classifying: options) == .deepLink(DefaultScenario.deepLink))
    }
}
