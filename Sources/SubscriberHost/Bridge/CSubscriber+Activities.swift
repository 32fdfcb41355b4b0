import Foundation
import SubscriberABI
import SubscriberKit

// URLs, user activities and shortcut items.
extension CSubscriber {
    /// application(_:open:options:) through `open_url`.
    public func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        guard let entry = vtable.open_url else { return nil }
        let payload = PayloadEncodeCache.shared.openURL(url: url, options: options)
        return answer(payload.withPointer { entry(me, $0) }, of: .openURL)
    }

    /// application(_:willContinueUserActivityWithType:) through `will_continue_user_activity`.
    public func application(_ application: Application,
                            willContinueUserActivityWithType userActivityType: String) -> Bool? {
        guard let entry = vtable.will_continue_user_activity else { return nil }
        return answer(withABIString(userActivityType) { entry(me, $0) }, of: .willContinueUserActivity)
    }

    /// application(_:continue:restorationHandler:) through `continue_user_activity`. Unless the
    /// plugin answers true, its restoration ticket is retired at once (a call is still forwarded,
    /// for the dispatcher to report); otherwise when the dispatcher stops waiting for it.
    public func application(_ application: Application, continue userActivity: UserActivity,
                            restorationHandler: CompletionHandler<[String]>) -> Bool? {
        guard let entry = vtable.continue_user_activity else { return nil }
        let payload = PayloadEncodeCache.shared.userActivity(userActivity)
        let restoration = CompletionBridge.restoration(restorationHandler, event: .continueUserActivity,
                                                       context: contextReference)
        let raw = payload.withPointer { entry(me, $0, restoration) }
        CompletionBridge.endCallSite()
        let result = answer(raw, of: .continueUserActivity)
        if result == true {
            CompletionBridge.retireWhenAbandoned(restoration.context, restorationHandler)
        } else {
            CompletionBridge.retire(restoration.context)
        }
        return result
    }

    /// application(_:didUpdate:) through `did_update_user_activity`.
    public func application(_ application: Application, didUpdate userActivity: UserActivity) {
        guard let entry = vtable.did_update_user_activity else { return }
        PayloadEncodeCache.shared.userActivity(userActivity).withPointer { entry(me, $0) }
    }

    /// application(_:didFailToContinueUserActivityWithType:error:) through
    /// `did_fail_to_continue_user_activity`.
    public func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                            error: LifecycleError) {
        guard let entry = vtable.did_fail_to_continue_user_activity else { return }
        withABIString(userActivityType) { type in error.withABIError { entry(me, type, $0) } }
    }

    /// application(_:performActionFor:completionHandler:) through `perform_action_for_shortcut_item`.
    public func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                            completionHandler: CompletionHandler<Bool>) {
        guard let entry = vtable.perform_action_for_shortcut_item else { return completionHandler.decline() }
        let payload = PayloadEncodeCache.shared.shortcutItem(shortcutItem)
        let completion = CompletionBridge.bool(completionHandler, event: .performActionForShortcutItem,
                                               context: contextReference)
        let response = payload.withPointer { entry(me, $0, completion) }
        settle(response, completion.context, completionHandler, .performActionForShortcutItem)
    }
}
