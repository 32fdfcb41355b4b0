import SubscriberDelivery
import SubscriberKit

/// The scene bridge (``DispatchConfiguration/sceneBridge``, manifest `"sceneBridge": true`): app-level
/// subscribers keep working in a scene-based app, where UIKit calls the app delegate's URL,
/// user-activity, quick-action and transition methods no more. A scene event that no scene subscriber
/// handled is replayed, once, as the app-level event its row names (``EventRow/bridge``):
/// `scene.openURLContexts` as one `openURL` per URL, the user-activity events and the quick action as
/// their app-level events, the four transitions as the app's when they change its state.
///
/// Whether a scene subscriber handled it, by the scene event's answer:
/// - a `Bool?` answered at once (URLs, user activities): the scene event's result is true (any true
///   by default) — Flutter's rule (3.41: the app-delegate fallback runs only when no scene plugin
///   returned true);
/// - a `Bool` through a completion (the quick action): a scene subscriber took the completion handler
///   (did not decline) — Flutter's rule too (a plugin that returns true owns the completion);
/// - a notification (transitions, `didUpdateUserActivity`, `didFailToContinueUserActivity`): per
///   subscriber — a subscriber that responds to the scene event handled it, one that does not gets the
///   app-level event — as Flutter's fallback skips plugins that adopted its scene protocol; Expo's
///   `ExpoAppSceneDelegate`, which has no scene subscribers, forwards every one to every subscriber.
///   A transition is replayed only when the app's state, derived from its scenes, changes: a second
///   scene becoming active does not make the app active twice (Expo and Flutter replay each scene's).
///
/// A replay goes only to the subscribers that do not respond to the scene event itself, so no
/// subscriber hears of one URL, activity or transition twice; with none, nothing is replayed.
enum SceneBridge {
    /// Replays `call` (a scene event just delivered as `delivered`, admitted as `admitted`) to the
    /// app-level responders of its bridge's event, by `deliver`, when its rule says so; nil when
    /// nothing is replayed. `lists` are the responders of each event, by event index.
    @MainActor
    static func replay(_ call: AnyEventCall, delivered: InFlight, admitted: SceneAdmission, lists: [ResponderList],
                       rules: DispatchRules = DispatchRules(),
                       deliver: (AnyEventCall, ResponderList) -> InFlight) -> BridgedFlight? {
        let row = call.event.row
        let forwards = rules.sceneBridgeForwards
        guard let rule = row.bridge else {
            // A connection, as the peers' rules say (SceneBridge+Connection.swift).
            return connectionReplays(call, delivered: delivered, lists: lists, rules: rules, deliver: deliver)
        }
        if rule.followsApplicationState {
            guard admitted.applicationBefore != admitted.applicationAfter else { return nil }
        } else if forwards == .unhandled, handled(row, delivered) {
            return nil
        }
        let sceneResponders = skipped(for: row.event, lists: lists, rules: rules)
        let responders = lists[rule.event.index].responders.filter { !sceneResponders.contains($0.subscriber) }
        guard !responders.isEmpty else { return nil }
        let list = ResponderList(responders)
        let replays = row.bridgedCalls(of: call).map { (event: rule.event, flight: deliver($0, list)) }
        return BridgedFlight(original: delivered, replays: replays)
    }

    /// Whether a scene subscriber handled the scene event `delivered` (see the type's rules); a
    /// notification is never handled as a whole.
    private static func handled(_ row: EventRow, _ delivered: InFlight) -> Bool {
        switch row.timing {
        case .notification: false
        case .immediate, .restoration: (delivered.immediate as? Bool) == true
        // A responder that declined has no row; one that awaits its completion keeps it unsettled.
        case .completion: delivered.settled.map { $0.answers.count > 0 } ?? true
        }
    }
}

extension BridgedFlight {
    /// The replays' outcomes, once the flight settled or finished: each app-level event with its
    /// result, its subscribers' answers (named by `names`) and its reports, in `state`.
    func outcomes(names: [String], state: ApplicationState) -> [AnyEventOutcome] {
        zip(replays, replayResults).map { replay, result in
            EventOutcome(event: replay.event, result: result.final, record: result.answers, names: names, reports: result.reports,
                         invocation: nil, applicationState: state)
        }
    }
}
