import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A plugin loaded while the host runs: checked as at start, ordered, and offered the notification
/// responses nobody handled — a plugin, not only an in-process subscriber, receives a kept response.
@MainActor
@Suite("Adding a plugin while the host runs", .serialized, .timeLimit(.minutes(10)))
struct AddPluginTests {
    static let options = HostOptions(extraSearchDirectories: [BuiltPlugins.directory])

    static func response() -> NotificationResponse {
        NotificationResponse(notification: UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]]))
    }

    @Test("a kept notification response is offered to a plugin added later, which handles it; then it is no longer kept")
    func keptResponseReachesAPlugin() async throws {
        let host = try PluginHost(manifest: Manifest(file: "(code)", directory: IntegrationTests.packageRoot, app: testApplication),
                                  options: Self.options)
        host.dispatchAtOnce(.didFinishLaunching())
        let tapped = await host.dispatch(.didReceiveNotificationResponse(Self.response()))
        #expect(tapped.isKept)
        var offered: [EventOutcome<Void>] = []
        let names = try host.addPlugin(ManifestPlugin(index: 0, source: .library("NotificationFetcher")), options: Self.options) {
            offered.append($0)
        }
        #expect(names == ["NotificationFetcher"])
        #expect(host.subscriberNames == ["NotificationFetcher"])
        #expect(offered.count == 1)
        #expect(offered.first?.answerNames == ["NotificationFetcher"])
        #expect(offered.first?.logs.contains { $0.message.contains("from notification breaking-42") } == true)
        #expect(host.dispatcher.live.pendingResponses.isEmpty)
        // The plugin now answers as any other: a second tap is handled, not kept.
        #expect(await host.dispatch(.didReceiveNotificationResponse(Self.response())).isKept == false)
        host.shutDown()
    }

    @Test("a plugin added later passes the load-time checks: a name the host has already is check 10; a missing library is named")
    func checked() throws {
        let host = try PluginHost(manifestAt: IntegrationTests.packageRoot + "/manifests/news.json", options: Self.options)
        let before = host.subscriberNames
        #expect {
            try host.addPlugin(ManifestPlugin(index: 9, source: .library("SessionAnalytics")), options: Self.options)
        } throws: { error in
            "\(error)".contains("plugins[9]") && "\(error)".contains("SessionAnalytics")
        }
        #expect {
            try host.addPlugin(ManifestPlugin(index: 9, source: .library("NoSuchPlugin")), options: Self.options)
        } throws: { error in
            "\(error)".contains("plugins[9]") && "\(error)".contains("NoSuchPlugin")
        }
        #expect(host.subscriberNames == before)
        host.shutDown()
        #expect(throws: SubscriberChangeError.self) {
            try host.addPlugin(ManifestPlugin(index: 9, source: .library("Greeter")), options: Self.options)
        }
    }
}
