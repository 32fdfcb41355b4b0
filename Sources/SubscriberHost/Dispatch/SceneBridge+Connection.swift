import SubscriberKit

extension SceneBridge {
    /// Under ``DispatchRules/SceneBridgeForwards/everything`` (Expo's `ExpoAppSceneDelegate`, which
    /// rebuilds launch options from `connectionOptions`): a `scene.willConnect`'s URL contexts are
    /// replayed as one `openURL` each and its user activity as `continueUserActivity`, to the
    /// app-level subscribers that do not respond to `scene.willConnect` themselves — so each hears
    /// the URL or link that opened the scene once, through the one method it has. Nil when there is
    /// nothing to replay or nobody to replay it to.
    @MainActor
    static func connectionReplays(_ call: AnyEventCall, delivered: InFlight, lists: [ResponderList],
                                  deliver: (AnyEventCall, ResponderList) -> InFlight) -> BridgedFlight? {
        guard call.event == .sceneWillConnect,
              let options = call.arguments(as: SceneConnectionArguments.Value.self)?.options else { return nil }
        var calls: [AnyEventCall] = options.urlContexts.map { EventCall.openURL(url: $0.url, options: $0.options).erased }
        if let activity = options.userActivity { calls.append(EventCall.continueUserActivity(activity).erased) }
        let sceneResponders = Set(lists[call.event.index].subscribers)
        var replays: [(event: LifecycleEvent, flight: InFlight)] = []
        for replay in calls {
            let responders = lists[replay.event.index].responders.filter { !sceneResponders.contains($0.subscriber) }
            guard !responders.isEmpty else { continue }
            replays.append((replay.event, deliver(replay, ResponderList(responders))))
        }
        return replays.isEmpty ? nil : BridgedFlight(original: delivered, replays: replays)
    }
}
