import Foundation
import SubscriberHost
import SubscriberKit

/// Compiled into the app, not loaded: it goes through the same dispatcher as the plugins' subscribers.
final class AppRouter: AppDelegateSubscriberBase, InstantiableSubscriber, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.scheme == "acme-news" ? true : nil
    }
}

/// An app that embeds the host: load a manifest, add its own subscriber, forward events, shut down.
@main
struct AcmeNewsApp {
    @MainActor
    static func main() async {
        let manifestPath = CommandLine.arguments.dropFirst().first ?? "manifest.json"

        // 1. Load the manifest's plugins. Any required failure throws one line; nothing is half-loaded.
        let host: PluginHost
        do {
            host = try PluginHost(manifestAt: manifestPath,
                                  options: HostOptions(logHandler: { record in print("  log  \(record)") }))
        } catch {
            FileHandle.standardError.write(Data("acme-news: \(error)\n".utf8))
            exit(2)
        }

        // 2. Add an in-process subscriber beside the loaded ones: one dispatcher over both.
        let router = SubscriberRegistration(AppRouter.self, application: host.manifest.app, sink: host.log)
        let dispatcher = LifecycleDispatcher(subscribers: host.dispatcher.subscribers + [router],
                                             configuration: host.dispatcher.configuration)

        // 3. Forward the app's real events, and use the reconciled answers.
        let launch = LaunchOptions(url: URL(string: "acme-news://home"))
        _ = dispatcher.willFinishLaunching(options: launch)
        let launched = dispatcher.didFinishLaunching(options: launch)
        print("launched: \(launched.result), invocation: \(launched.invocation.map { "\($0)" } ?? "none")")
        _ = dispatcher.didBecomeActive()
        let opened = dispatcher.openURL(URL(string: "acme-welcome://tour")!)
        print("acme-welcome://tour handled: \(opened.result)")
        let fetch = await dispatcher.performFetch()
        print("background fetch: \(fetch.result)")

        // 4. Shut down: the last event, then destroy the loaded subscribers. Plugins stay resident.
        _ = dispatcher.willTerminate()
        host.shutDown()
    }
}
