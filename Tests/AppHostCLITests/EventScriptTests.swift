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
            .didFinishLaunching(options: LaunchOptions(url: URL(string: "news://article/7"))),
            .openURL(url: URL(string: "news://article/8")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")),
            .performFetch,
        ])
    }

    @Test("CRLF line ends and a missing final newline read the same")
    func lineEnds() throws {
        let calls = try EventScript.parse("{\"event\": \"didBecomeActive\"}\r\n{\"event\": \"willTerminate\"}", file: "s")
        #expect(calls == [.didBecomeActive, .willTerminate])
        #expect(try EventScript.parse("", file: "s").isEmpty)
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

    @Test("read(from:) names a missing file; the shipped every-event script covers every wire name")
    func files() throws {
        #expect(throws: EventScriptError(file: "/nonexistent/e.jsonl", line: nil, location: "",
                                         expected: "a readable event script", found: "nothing at that path")) {
            try EventScript.read(from: "/nonexistent/e.jsonl")
        }
        #expect(EventScriptError(file: "e", line: nil, location: "", expected: "x", found: "y").description == "e: expected x, found y")
        let calls = try EventScript.read(from: AppHostProcess.manifest("events/every-event.jsonl"))
        #expect(Set(calls.map(\.event)) == Set(LifecycleEvent.allCases))
    }

    @Test("the default scenario: a cold launch from a universal link through terminate")
    func defaultScenario() {
        #expect(DefaultScenario.calls.map(\.event) == [
            .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .openURL, .didReceiveRemoteNotification,
            .willResignActive, .didEnterBackground, .performFetch, .willEnterForeground, .didBecomeActive,
            .didReceiveMemoryWarning, .willTerminate,
        ])
        guard case .didFinishLaunching(let options) = DefaultScenario.calls[1] else { return #expect(Bool(false)) }
        #expect(LaunchInvocation(classifying: options) == .deepLink(DefaultScenario.deepLink))
    }
}
