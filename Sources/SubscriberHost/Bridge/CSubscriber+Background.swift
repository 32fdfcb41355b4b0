import Foundation
import SubscriberABI
import SubscriberKit

// Remote notifications and background work.
extension CSubscriber {
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:) through
    /// `did_register_for_remote_notifications`.
    public func application(_ application: Application,
                            didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        guard let entry = vtable.did_register_for_remote_notifications else { return }
        deviceToken.withUnsafeBytes { raw in
            entry(me, adh_bytes(data: raw.bindMemory(to: UInt8.self).baseAddress, length: raw.count))
        }
    }

    /// application(_:didFailToRegisterForRemoteNotificationsWithError:) through
    /// `did_fail_to_register_for_remote_notifications`.
    public func application(_ application: Application,
                            didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {
        guard let entry = vtable.did_fail_to_register_for_remote_notifications else { return }
        error.withABIError { entry(me, $0) }
    }

    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:) through
    /// `did_receive_remote_notification`.
    public func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                            fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        guard let entry = vtable.did_receive_remote_notification else { return completionHandler.decline() }
        let userInfo = PayloadEncodeCache.shared.notificationUserInfo(userInfo)
        let completion = CompletionBridge.fetch(completionHandler, event: .didReceiveRemoteNotification,
                                                context: contextReference)
        let response = entry(me, userInfo.string, completion)
        settle(response, completion.context, completionHandler, .didReceiveRemoteNotification)
    }

    /// application(_:performFetchWithCompletionHandler:) through `perform_fetch`.
    public func application(_ application: Application,
                            performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        guard let entry = vtable.perform_fetch else { return completionHandler.decline() }
        let completion = CompletionBridge.fetch(completionHandler, event: .performFetch,
                                                context: contextReference)
        settle(entry(me, completion), completion.context, completionHandler, .performFetch)
    }

    /// application(_:handleEventsForBackgroundURLSession:completionHandler:) through
    /// `handle_events_for_background_url_session`.
    public func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                            completionHandler: CompletionHandler<Void>) {
        guard let entry = vtable.handle_events_for_background_url_session else { return completionHandler.decline() }
        let event = LifecycleEvent.handleEventsForBackgroundURLSession
        let completion = CompletionBridge.void(completionHandler, event: event,
                                               context: contextReference)
        let response = withABIString(identifier) { entry(me, $0, completion) }
        settle(response, completion.context, completionHandler, event)
    }

    /// After a completion entry returned: a decline retires the ticket and declines the handler;
    /// otherwise the ticket is retired when the dispatcher stops waiting for `handler`.
    func settle<Value>(_ response: adh_response, _ token: UnsafeMutableRawPointer?, _ handler: CompletionHandler<Value>,
                       _ event: LifecycleEvent) {
        CompletionBridge.endCallSite()
        guard declined(response, of: event) else {
            return CompletionBridge.retireWhenAbandoned(token, handler)
        }
        CompletionBridge.retire(token)
        handler.decline()
    }
}
