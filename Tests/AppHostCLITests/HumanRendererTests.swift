import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("Human renderer")
struct HumanRendererTests {
    let renderer = HumanRenderer(style: .plain, subscriberNames: ["DeepLinkRouter", "SessionAnalytics", "X"])

    func answer(_ name: String, _ value: (any Sendable)?, microseconds: Int64) -> SubscriberAnswer {
        SubscriberAnswer(subscriber: name, answer: value, duration: .microseconds(microseconds))
    }

    func outcome(_ event: LifecycleEvent, _ result: any Sendable, answers: [SubscriberAnswer], reports: [DispatchReport],
                 invocation: LaunchInvocation? = nil, logs: [LogRecord] = []) -> AnyEventOutcome {
        AnyEventOutcome(event: event, result: result, answers: answers, reports: reports, invocation: invocation,
                        applicationState: .active, logs: logs)
    }

    @Test("an event block: heading with result and invocation, aligned rows, logs, then reports")
    func launchBlock() {
        let url = URL(string: "https://news.example.com/article/42")!
        let log = LogRecord(subscriber: "DeepLinkRouter", kind: .log, level: .info, message: "routing to article/42")
        let event = LogRecord(subscriber: "DeepLinkRouter", kind: .event, level: .info, message: "deep_link_routed",
                              attributes: ["route": "article/42"])
        let report = outcome(.didFinishLaunching, true,
                                 answers: [answer("DeepLinkRouter", true, microseconds: 40),
                                           answer("SessionAnalytics", nil, microseconds: 12_345)],
                                 reports: [.duplicateCompletion(subscriber: "X", event: .performFetch)],
                                 invocation: .deepLink(url), logs: [log, event])
        let text = renderer.event(report, call: EventCall.didFinishLaunching(options: LaunchOptions()).erased)
        #expect(text == """
            ▸ didFinishLaunching  → true   invocation: deepLink(https://news.example.com/article/42)
                DeepLinkRouter    true       0.04 ms
                SessionAnalytics  —         12.35 ms
                log   DeepLinkRouter: routing to article/42
                event DeepLinkRouter: deep_link_routed {route: article/42}
                ⚠ duplicate completion: X completed performFetch more than once; the extra call was ignored


            """)
    }

    @Test("arguments in the heading; notifications read 'called'; nobody answering is said")
    func otherEvents() {
        let open = outcome(.openURL, false, answers: [answer("DeepLinkRouter", false, microseconds: 1)],
                               reports: [])
        let openText = renderer.event(open, call: EventCall.openURL(url: URL(string: "https://x.org/p")!, options: OpenURLOptions()).erased)
        #expect(openText.hasPrefix("▸ openURL https://x.org/p  → false\n    DeepLinkRouter    false     0.00 ms\n"))

        let active = outcome(.didBecomeActive, (), answers: [answer("X", nil, microseconds: 2)], reports: [])
        #expect(renderer.event(active, call: EventCall.didBecomeActive.erased)
                == "▸ didBecomeActive\n    X                 called    0.00 ms\n\n")

        let orientations = outcome(.supportedInterfaceOrientations, ([.portrait, .landscapeLeft] as InterfaceOrientationMask),
                                       answers: [], reports: [])
        #expect(renderer.event(orientations, call: EventCall.supportedInterfaceOrientations(idiom: .pad).erased)
                == "▸ supportedInterfaceOrientations pad  → [portrait, landscapeLeft]\n    (no subscriber answered)\n\n")
    }

    @Test("an empty block says whether nobody was asked or nobody answered")
    func emptyBlocks() {
        let launch = outcome(.willFinishLaunching, true, answers: [], reports: [])
        let call = EventCall.willFinishLaunching(options: LaunchOptions()).erased
        #expect(renderer.event(launch, call: call, nobodyResponds: true)
                == "▸ willFinishLaunching  → true\n    (no subscriber responds to this event)\n\n")
        #expect(renderer.event(launch, call: call, nobodyResponds: false)
                == "▸ willFinishLaunching  → true\n    (no subscriber answered)\n\n")
    }

    @Test("the header names the app, each plugin, the skipped ones and the dispatch order")
    func header() {
        let summary = HostSummary(
            manifestFile: "manifests/news.json", app: Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0"),
            plugins: [
                PluginSummary(index: 0, source: "library \"DeepLinkRouter\"", name: "Deep Link Router", id: "dev.x.router",
                              version: "1.0.0", abi: "1.0", swiftVersion: "6.3", path: "/p/libDeepLinkRouter.so",
                              subscribers: ["DeepLinkRouter"]),
                PluginSummary(index: 2, source: "library \"ExtensionGuard\"", name: "ExtensionGuard", id: "dev.x.guard",
                              version: "1.0.0", abi: "1.0", swiftVersion: "", path: "/p/libExtensionGuard.so",
                              subscribers: ["ExtensionGuard"]),
            ],
            skipped: [HostSummary.Skipped(keyPath: "plugins[1]", source: "library \"Missing\"", reason: "not found")],
            dispatchOrder: ["DeepLinkRouter", "ExtensionGuard"])
        let boot = LogRecord(subscriber: "ExtensionGuard", kind: .log, level: .warning, message: "careful")
        #expect(renderer.header(summary, logs: [boot]) == """
            News 1.0 (com.example.news) · manifests/news.json
              plugins[0]  Deep Link Router 1.0.0  Swift 6.3 · ABI 1.0 · in process  DeepLinkRouter
              plugins[2]  ExtensionGuard 1.0.0    C · ABI 1.0 · in process          ExtensionGuard
              ⚠ plugins[1] library "Missing" skipped (optional): not found
              order: DeepLinkRouter → ExtensionGuard
                warn  ExtensionGuard: careful


            """)
    }

    @Test("descriptor names, subscriber names, log lines and reports from a plugin are escaped; columns count the escapes")
    func hostilePlugin() {
        let evil = "Evil\u{1B}[2J\r"
        let summary = HostSummary(
            manifestFile: "m.json", app: Application(name: "A\u{7}", bundleIdentifier: "a", version: "1\n2"),
            plugins: [PluginSummary(index: 0, source: "path \"x.so\"", name: "Name\u{1B}]0;t\u{7}", id: "i",
                                    version: "1.0\u{9B}", abi: "1.0", swiftVersion: "", path: "/x.so", subscribers: [evil])],
            dispatchOrder: [evil])
        let renderer = HumanRenderer(style: .plain, subscriberNames: summary.dispatchOrder)
        #expect(renderer.nameWidth == 12)  // "Evil\\e[2J\\r" is 11 characters, padded to the minimum
        let header = renderer.header(summary, logs: [LogRecord(subscriber: evil, kind: .log, level: .info, message: "a\nb\u{1B}[1A")])
        #expect(header == #"""
            A\u{7} 1\n2 (a) · m.json
              plugins[0]  Name\e]0;t\u{7} 1.0\u{9B}  C · ABI 1.0 · in process  Evil\e[2J\r
              order: Evil\e[2J\r
                log   Evil\e[2J\r: a\nb\e[1A


            """#)
        let report = outcome(.didBecomeActive, (), answers: [answer(evil, nil, microseconds: 1)],
                                 reports: [.late(subscriber: evil, event: .didBecomeActive)])
        let text = renderer.event(report, call: EventCall.didBecomeActive.erased)
        #expect(text.contains("    Evil\\e[2J\\r   called    0.00 ms\n"))
        #expect(text.contains(#"⚠ late: Evil\e[2J\r did not complete"#))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("after the last event and the footer")
    func closing() {
        #expect(renderer.afterLastEvent(reports: [], logs: []).isEmpty)
        #expect(renderer.afterLastEvent(reports: [.completionAfterDelivery(subscriber: "X", event: .performFetch)], logs: [])
                == "▸ after the last event\n    ⚠ late completion: X completed performFetch after the result was delivered; ignored\n\n")
        #expect(renderer.footer(events: 12, reports: 0) == "12 events played, no reports\n")
        #expect(renderer.footer(events: 1, reports: 2) == "1 event played, 2 reports (exit status 1)\n")
        // `apphost run` exits 0 when stopped as asked, reports or not: its footer claims no status.
        #expect(renderer.footer(events: 1, reports: 2, reportsFail: false) == "1 event played, 2 reports\n")
    }

    @Test("colour only when enabled, and columns line up either way")
    func colour() {
        let report = outcome(.openURL, true, answers: [answer("DeepLinkRouter", true, microseconds: 5)],
                                 reports: [.late(subscriber: "X", event: .openURL)])
        let call = EventCall.openURL(url: URL(string: "news://a")!, options: OpenURLOptions()).erased
        let plain = renderer.event(report, call: call)
        var coloured = renderer
        coloured.style = Style(enabled: true)
        let text = coloured.event(report, call: call)
        #expect(!plain.contains("\u{1B}["))
        #expect(text.contains("\u{1B}[1mopenURL\u{1B}[0m") && text.contains("\u{1B}[33m⚠ late:"))
        #expect(text.replacing(/\x{1B}\[\d+m/, with: "") == plain)
    }

    @Test("Style.for: colour needs a terminal and no NO_COLOR")
    func styleChoice() {
        let terminal = TextOutput(isTerminal: true) { _ in }
        let pipe = TextOutput(isTerminal: false) { _ in }
        #expect(Style.for(terminal, environment: [:]).enabled)
        #expect(Style.for(terminal, environment: ["NO_COLOR": ""]).enabled)  // empty means unset (no-color.org)
        #expect(!Style.for(terminal, environment: ["NO_COLOR": "1"]).enabled)
        #expect(!Style.for(pipe, environment: [:]).enabled)
        // Without a dictionary, NO_COLOR is read from the process itself: the same verdict.
        let process = ProcessInfo.processInfo.environment
        #expect(Style.for(terminal) == Style.for(terminal, environment: process))
        #expect(!Style.for(pipe).enabled)
        #expect(Style(enabled: false).bold("x") == "x" && Style(enabled: true).bold("") == "")
    }

    @Test("display text: compact values and milliseconds")
    func displayText() {
        #expect(DisplayText.value(nil) == "—" && DisplayText.value(.null) == "—")
        #expect(DisplayText.value(["handled": true, "restorableObjects": ["article/9"]]) == "{handled: true, restorableObjects: [article/9]}")
        #expect(DisplayText.value(3) == "3" && DisplayText.value("") == "\"\"")
        #expect(DisplayText.milliseconds(.microseconds(5_000_270)) == "5000.27 ms")
    }
}
