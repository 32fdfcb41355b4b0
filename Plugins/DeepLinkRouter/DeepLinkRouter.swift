// DeepLinkRouter — the news app of "Simplifying iOS App Invocation Handling": routes universal links
// `https://<host>/article/<id>` (launch and continueUserActivity) and custom-scheme URLs
// `news://article/<id>` (launch and openURL), and answers false for URLs it does not own. In a
// scene-based app it routes what each scene receives — its connection options, the URLs it opens,
// the activities it continues — and names the scene; its app-delegate methods stay for apps without
// scenes.
//
// Options: {"hosts": ["news.example.com"], "scheme": "news"} (these are the defaults).
import Foundation
import SubscriberKit

/// A destination inside the app.
enum NewsRoute: Equatable, CustomStringConvertible {
    case article(id: String)

    var description: String {
        switch self {
        case .article(let id): "article/\(id)"
        }
    }
}

/// Matches URLs against patterns; generic so the plugin carries generic code of its own.
struct Router<Route> {
    private var patterns: [(matches: (URL) -> Route?, name: String)] = []

    mutating func add(_ name: String, _ match: @escaping (URL) -> Route?) {
        patterns.append((match, name))
    }

    func route(_ url: URL) -> Route? {
        for pattern in patterns {
            if let route = pattern.matches(url) { return route }
        }
        return nil
    }
}

/// Routes article links; owns only its hosts and its scheme.
final class DeepLinkRouter: AppDelegateSubscriberBase, InstantiableSubscriber, DidFinishLaunchingSubscriber,
                            OpenURLSubscriber, WillContinueUserActivitySubscriber,
                            ContinueUserActivitySubscriber, SceneWillConnectSubscriber, SceneOpenURLContextsSubscriber,
                            SceneWillContinueUserActivitySubscriber, SceneContinueUserActivitySubscriber {
    private var router = Router<NewsRoute>()
    private(set) var lastRoute: NewsRoute?

    required init(context: SubscriberContext) {
        super.init(context: context)
        let hosts = context.options["hosts"]?.arrayValue?.compactMap(\.stringValue) ?? ["news.example.com"]
        let scheme = context.options["scheme"]?.stringValue ?? "news"
        router.add("universal link") { url in
            guard url.scheme == "https", let host = url.host, hosts.contains(host) else { return nil }
            let parts = url.path.split(separator: "/")
            guard parts.count == 2, parts[0] == "article", !parts[1].isEmpty else { return nil }
            return .article(id: String(parts[1]))
        }
        router.add("custom scheme") { url in
            guard url.scheme == scheme, url.host == "article" else { return nil }
            let id = url.path.split(separator: "/").first.map(String.init) ?? ""
            return id.isEmpty ? nil : .article(id: id)
        }
    }

    func application(_ application: Application,
                     didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        switch application.launchInvocation {
        case .deepLink(let url)?, .urlScheme(let url)?:
            return open(url)
        default:
            return nil
        }
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        open(url)
    }

    func application(_ application: Application,
                     willContinueUserActivityWithType userActivityType: String) -> Bool? {
        userActivityType == UserActivity.browsingWeb ? true : nil
    }

    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        guard userActivity.activityType == UserActivity.browsingWeb, let url = userActivity.webpageURL,
              let route = router.route(url) else { return false }
        show(route)
        restorationHandler([route.description])
        return true
    }

    // MARK: Scenes

    /// A scene connecting with a URL or a universal link (a cold launch, a new window): routed in it.
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        let urls = connectionOptions.urlContexts.map(\.url) + [connectionOptions.userActivity].compactMap(universalLink)
        for url in urls { _ = open(url, in: scene) }
    }

    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        // Every URL is tried: no early return, so a second URL of ours is routed too.
        urlContexts.map { open($0.url, in: scene) }.contains(true)
    }

    func scene(_ scene: Scene, willContinueUserActivityWithType userActivityType: String) -> Bool? {
        userActivityType == UserActivity.browsingWeb ? true : nil
    }

    func scene(_ scene: Scene, continue userActivity: UserActivity) -> Bool? {
        guard let url = universalLink(userActivity) else { return false }
        return open(url, in: scene)
    }

    /// The web page URL of a universal link (a browsing-web activity); nil for any other activity.
    private func universalLink(_ activity: UserActivity?) -> URL? {
        guard let activity, activity.activityType == UserActivity.browsingWeb else { return nil }
        return activity.webpageURL
    }

    // MARK: Routing

    /// Shows the route for `url` (in `scene`, when a scene opened it) and answers true, or answers
    /// false for a URL this router does not own.
    private func open(_ url: URL, in scene: Scene? = nil) -> Bool {
        guard let route = router.route(url) else {
            log("not ours: \(url.absoluteString)", level: .debug)
            return false
        }
        show(route, in: scene)
        return true
    }

    private func show(_ route: NewsRoute, in scene: Scene? = nil) {
        lastRoute = route
        var attributes: JSONObject = ["route": .string(route.description)]
        if let scene {
            attributes["scene"] = .string(scene.identifier)
            log("routing to \(route) in scene \(scene.identifier)")
        } else {
            log("routing to \(route)")
        }
        logEvent("deep_link_routed", attributes: attributes)
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.deep-link-router", name: "Deep Link Router", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [DeepLinkRouter.self])
}
