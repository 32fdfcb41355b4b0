import Foundation
import SubscriberHost
import SubscriberKit

/// Compiled into the app, not loaded: it goes through the same dispatcher as the plugins' subscribers.
final class AppRouter: AppDelegateSubscriberBase, InstantiableSubscriber, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.scheme == "acme-news" ? true : nil
    }
}

/// An app that embeds the host: load a manifest with its own subscriber beside the plugins', forward
/// events, shut down.
@main
struct AcmeNewsApp {
    @MainActor
    static func main() async {
        let manifestPath = CommandLine.arguments.dropFirst().first ?? "manifest.json"

        // 1. Load the manifest's plugins and the app's own subscriber: one dispatcher over both. Any
        //    required failure throws one line; nothing is half-loaded.
        let host: PluginHost
        do {
            host = try PluginHost(manifestAt: manifestPath, inProcess: [InProcessSubscriber(AppRouter.self)],
                                  options: HostOptions(logHandler: { record in print("  log  \(record)") }))
        } catch {
            FileHandle.standardError.write(Data("acme-news: \(error)\n".utf8))
            exit(2)
        }

        // 2. Forward the app's real events, and use the reconciled answers.
        let launch = LaunchOptions(url: URL(string: "acme-news://home"))
        _ = host.dispatchAtOnce(.willFinishLaunching(options: launch))
        let launched = await host.dispatch(.didFinishLaunching(options: launch))
        print("launched: \(launched.result), invocation: \(launched.invocation.map { "\($0)" } ?? "none")")
        _ = host.dispatchAtOnce(.didBecomeActive)
        let opened = await host.dispatch(.openURL(url: URL(string: "acme-welcome://tour")!))
        print("acme-welcome://tour handled: \(opened.result)")
        let fetch = await host.dispatch(.performFetch)
        print("background fetch: \(fetch.result)")

        // 3. Shut down: the last event, then destroy the loaded subscribers. Plugins stay resident.
        _ = await host.dispatch(.willTerminate)
        host.shutDown()
    }
}
