import Foundation
import SubscriberHost
import SubscriberKit

/// Compiled into the app, not loaded from a plugin: it goes through the same dispatcher, the same
/// reconcilers and the same ordering as the manifest's subscribers.
final class AppRouter: InstantiableSubscriber, OpenURLSubscriber, WillTerminateSubscriber {
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.scheme == "news-app" ? true : nil
    }

    func applicationWillTerminate(_ application: Application) {
        context.log("saving the reading list")
    }
}

/// An app that embeds the host: it loads a manifest's plugins with its own subscriber beside them,
/// forwards the events its real app delegate receives, and shuts the host down. Each step's line
/// goes to `say`.
@MainActor
public enum EmbeddedNewsApp {
    public static func run(manifest path: String, say: (String) -> Void) async throws(HostError) {
        // 1. Load: the manifest's plugins, then the app's own subscribers. All or nothing.
        let host = try PluginHost(manifestAt: path, inProcess: [InProcessSubscriber(AppRouter.self, priority: 20)])
        for record in host.takeLogs() { say("log: \(record)") }

        // 2. Forward the app's events as its UIApplicationDelegate receives them.
        let launch = LaunchOptions(url: URL(string: "news://article/42"))
        _ = host.dispatchAtOnce(.willFinishLaunching(options: launch))
        let launched = await host.dispatch(.didFinishLaunching(options: launch))
        say("launched: \(launched.result), from \(launched.invocation.map(String.init(describing:)) ?? "?")")

        // What UIKit's application(_:open:options:) returns, at once.
        let opened = host.dispatchAtOnce(.openURL(url: URL(string: "news-app://settings")!))
        say("news-app://settings handled: \(opened.result), first asked: \(opened.answers.first?.subscriber ?? "nobody")")

        let fetched = await host.dispatch(.performFetch)  // completes when every plugin called back
        say("background fetch: \(fetched.result)")

        let terminating = await host.dispatch(.willTerminate)
        for record in terminating.logs { say("log: \(record)") }

        // 3. Shut down: destroy the plugins' subscribers; what they log until then is handed back.
        let leftovers = host.shutDown()
        say("shut down: \(leftovers.logs.count) more log lines, \(leftovers.reports.count) reports")
    }
}
