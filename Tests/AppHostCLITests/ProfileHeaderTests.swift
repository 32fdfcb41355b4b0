import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("apphost's header names a peer profile")
struct ProfileHeaderTests {
    @Test("a profile other than uikit is a line of the header, before the order; uikit adds nothing")
    func profileLine() {
        let renderer = HumanRenderer(style: .plain, subscriberNames: ["A"])
        let app = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")
        let expo = HostSummary(manifestFile: "m.json", app: app, plugins: [], dispatchOrder: ["A"], profile: .expo)
        #expect(renderer.header(expo) == """
            News 1.0 (com.example.news) · m.json
              (no plugins)
              profile: expo (docs/profiles.md)
              order: A


            """)
        let plain = HostSummary(manifestFile: "m.json", app: app, plugins: [], dispatchOrder: ["A"])
        #expect(!renderer.header(plain).contains("profile"))
    }
}
