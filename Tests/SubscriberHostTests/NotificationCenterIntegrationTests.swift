import Foundation
import Testing
import SubscriberKit
@testable import SubscriberHost

/// An in-process subscriber that asks for a sound on every notification presented in the foreground.
final class SoundForEverything: AppDelegateSubscriberBase, InstantiableSubscriber, WillPresentNotificationSubscriber {
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        completionHandler(.sound)
    }
}

/// QuietHours (Plugins/QuietHours, C), in the notification-center family through `get_extension`,
/// loaded from manifests/notifications.json and played the family's events through PluginHost.
@MainActor
@Suite("Integration: the notification center in C (manifests/notifications.json)", .serialized)
struct NotificationCenterIntegrationTests {
    static let manifest = IntegrationTests.packageRoot + "/manifests/notifications.json"
    static let breaking = UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]], categoryIdentifier: "article")

    /// The shipped manifest's host, launched and active, every record collected.
    func loadShipped(inProcess: [InProcessSubscriber] = []) throws -> (PluginHost, LogCollector) {
        let logs = LogCollector()
        let host = try PluginHost(manifestAt: Self.manifest, inProcess: inProcess, options: logs.hostOptions)
        host.launch()
        return (host, logs)
    }

    /// A host over QuietHours alone, with `options` (JSON text), launched and active, every record collected.
    func loadQuietHours(options: String) throws -> (PluginHost, LogCollector) {
        let (host, logs) = try loadHost(manifest: """
            {"app": {"name": "Q", "bundleIdentifier": "com.example.q"},
             "plugins": [{"library": "QuietHours", "options": \(options)}]}
            """)
        host.launch()
        return (host, logs)
    }

    @Test("QuietHours responds to the notification-center family and nothing else")
    func loads() throws {
        let (host, logs) = try loadShipped()
        defer { host.shutDown() }
        #expect(host.plugins.plugins.map(\.image.name) == ["QuietHours"])
        let quiet = try #require(host.subscribers.first { $0.name == "QuietHours" })
        #expect(quiet.speaksExtensions)
        #expect(quiet.respondingEvents == EventFamily.notificationCenter.events)
        for event in EventFamily.notificationCenter.events {
            #expect(host.dispatcher.responderNames(for: event) == ["QuietHours"], "\(event)")
        }
        #expect(logs.all.allSatisfy { $0.kind != .error }, "\(logs.all)")
    }

    @Test("quiet hours (the shipped manifest): in the list with a badge, no banner, no sound")
    func quietPresentation() async throws {
        let (host, _) = try loadShipped()
        defer { host.shutDown() }
        let outcome = await host.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.result == [.list, .badge])
        #expect(outcome.answers.map(\.subscriber) == ["QuietHours"])
        #expect(outcome.answers(as: NotificationPresentationOptions.self) == [[.list, .badge]])
        #expect(outcome.reports.isEmpty)
    }

    @Test("not quiet ({\"quietHours\": false}, or no options): a banner and a sound")
    func loudPresentation() async throws {
        for options in [#"{"quietHours": false}"#, "{}"] {
            let (host, logs) = try loadQuietHours(options: options)
            defer { host.shutDown() }
            #expect(await host.dispatch(.willPresentNotification(Self.breaking)).result == [.banner, .sound], "\(options)")
            #expect(logs.all.isEmpty, "\(options): \(logs.all)")
        }
    }

    @Test("reconciled with an in-process subscriber's answer: the union of both")
    func unionWithAnotherSubscriber() async throws {
        let (host, _) = try loadShipped(inProcess: [InProcessSubscriber(SoundForEverything.self)])
        defer { host.shutDown() }
        let outcome = await host.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.answers.map(\.subscriber) == ["QuietHours", "SoundForEverything"])
        #expect(outcome.result == [.list, .badge, .sound])
    }

    @Test("didReceiveResponse: the action and the notification logged, completed (no report)")
    func response() async throws {
        let (host, _) = try loadShipped()
        defer { host.shutDown() }
        let tap = await host.dispatch(.didReceiveNotificationResponse(NotificationResponse(notification: Self.breaking)))
        #expect(tap.answers.map(\.subscriber) == ["QuietHours"])
        #expect(tap.reports.isEmpty)
        #expect(tap.logs.map(\.description) == ["[QuietHours] info: action \(NotificationResponse.defaultActionIdentifier) on breaking-42"])

        let reply = NotificationResponse(notification: UserNotification(identifier: "chat-7"), actionIdentifier: "reply",
                                         userText: "on my way")
        let replied = await host.dispatch(.didReceiveNotificationResponse(reply))
        #expect(replied.logs.map(\.message) == ["action reply on chat-7"])
        #expect(replied.reports.isEmpty)
    }

    @Test("openSettings: logged, from Settings (no notification) or from a notification")
    func openSettings() throws {
        let (host, _) = try loadShipped()
        defer { host.shutDown() }
        #expect(host.dispatchAtOnce(.openNotificationSettings()).logs.map(\.message) == ["settings opened"])
        #expect(host.dispatchAtOnce(.openNotificationSettings(for: Self.breaking)).logs.map(\.message)
                == ["settings opened from a notification"])
    }

    @Test("malformed options: one error line (where, expected, found), and it is not quiet")
    func malformedOptions() async throws {
        let cases = [
            (#"{"quietHours": "yes"}"#, "expected true or false, found '\"'; not quiet"),
            (#"{"quiet": true}"#, "expected the key \"quietHours\" or '}', found '\"'; not quiet"),
            (#"{"quietHours": true, "extra": 1}"#, "expected '}', found ','; not quiet"),
        ]
        for (options, ending) in cases {
            let (host, logs) = try loadQuietHours(options: options)
            defer { host.shutDown() }
            let lines = logs.all.map(\.description)
            #expect(lines.count == 1, "\(options): \(lines)")
            #expect(lines.first?.hasPrefix("[QuietHours] error: QuietHours options: at byte ") == true, "\(lines)")
            #expect(lines.first?.hasSuffix(ending) == true, "\(options): \(lines)")
            #expect(await host.dispatch(.willPresentNotification(Self.breaking)).result == [.banner, .sound], "\(options)")
        }
    }
}
