import SubscriberDelivery
import SubscriberKit

extension SceneBridge {
    /// What the bridge replays of a `scene.willConnect`, to the app-level subscribers that do not
    /// respond to `scene.willConnect` themselves, in this order:
    /// - under ``DispatchRules/connectAsLaunch`` (Flutter's `sceneWillConnectFallback:` in
    ///   `FlutterPluginAppLifeCycleDelegate.mm`, once per scene), `didFinishLaunching` with the launch
    ///   options Flutter's `ConvertConnectionOptions` makes of the connection's — its first URL, that
    ///   URL's source application, its quick action, nothing else — and, as there, not at all for a
    ///   connection that has none of them;
    /// - under ``DispatchRules/SceneBridgeForwards/everything`` (Expo's `ExpoAppSceneDelegate`, which
    ///   passes `launchOptions: nil` and routes each URL context and each activity on its own), one
    ///   `openURL` per URL context and `continueUserActivity` for its activity — so each hears the
    ///   URL or link that opened the scene once, through the one method it has.
    /// Nil when there is nothing to replay or nobody to replay it to.
    @MainActor
    static func connectionReplays(_ call: AnyEventCall, delivered: InFlight, lists: [ResponderList], rules: DispatchRules,
                                  deliver: (AnyEventCall, ResponderList) -> InFlight) -> BridgedFlight? {
        guard call.event == .sceneWillConnect, rules.connectAsLaunch || rules.sceneBridgeForwards == .everything,
              let options = call.arguments(as: SceneConnectionArguments.Value.self)?.options else { return nil }
        var calls: [AnyEventCall] = []
        if rules.connectAsLaunch, options.urlContexts.first != nil || options.shortcutItem != nil {
            let first = options.urlContexts.first
            calls.append(EventCall.didFinishLaunching(options: LaunchOptions(
                url: first?.url, sourceApplication: first?.options.sourceApplication, shortcutItem: options.shortcutItem)).erased)
        }
        if rules.sceneBridgeForwards == .everything {
            calls += options.urlContexts.map { EventCall.openURL(url: $0.url, options: $0.options).erased }
            if let activity = options.userActivity { calls.append(EventCall.continueUserActivity(activity).erased) }
        }
        let sceneResponders = skipped(for: call.event, lists: lists, rules: rules)
        var replays: [(event: LifecycleEvent, flight: InFlight)] = []
        for replay in calls {
            let responders = lists[replay.event.index].responders.filter { !sceneResponders.contains($0.subscriber) }
            guard !responders.isEmpty else { continue }
            replays.append((replay.event, deliver(replay, ResponderList(responders))))
        }
        return replays.isEmpty ? nil : BridgedFlight(original: delivered, replays: replays)
    }

    /// The subscribers (by position) a replay of scene event `event` skips: those that respond to
    /// `event` itself (``DispatchRules/SceneBridgeSkips/eventResponders``, the default), or those
    /// that respond to any scene event — that adopted the scene life cycle as a whole
    /// (``DispatchRules/SceneBridgeSkips/sceneSubscribers``, Flutter).
    @MainActor
    static func skipped(for event: LifecycleEvent, lists: [ResponderList], rules: DispatchRules) -> Set<Int> {
        switch rules.sceneBridgeSkips {
        case .eventResponders:
            return Set(lists[event.index].subscribers)
        case .sceneSubscribers:
            var skipped: Set<Int> = []
            for row in EventTable.rows where row.namesScene { skipped.formUnion(lists[row.event.index].subscribers) }
            return skipped
        }
    }
}
