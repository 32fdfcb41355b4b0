import Foundation
import SubscriberABI

// Remote notifications and background work.
extension Trampoline {
    static func didRegisterForRemoteNotifications(_ me: Me, _ token: adh_bytes) {
        let token = Data(token.buffer)
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($1, didRegisterForRemoteNotificationsWithDeviceToken: token)
        }
    }

    static func didFailToRegisterForRemoteNotifications(_ me: Me, _ error: UnsafePointer<adh_error>?) {
        let error = error.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($1, didFailToRegisterForRemoteNotificationsWithError: error)
        }
    }

    static func didReceiveRemoteNotification(_ me: Me, _ userInfoJSON: adh_string,
                                             _ completion: adh_fetch_completion) -> adh_response {
        let (userInfo, problem) = ABI.jsonObject(userInfoJSON, what: "remote notification userInfo")
        return ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            if let problem { instance.warn(problem) }
            let call = CompletionCall(instance: instance, event: .didReceiveRemoteNotification,
                                      completion: .fetch(completion))
            instance.subscriber.application(application, didReceiveRemoteNotification: userInfo,
                                            fetchCompletionHandler: call.fetchHandler)
            return call.finish()
        }
    }

    static func performFetch(_ me: Me, _ completion: adh_fetch_completion) -> adh_response {
        return ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            let call = CompletionCall(instance: instance, event: .performFetch, completion: .fetch(completion))
            instance.subscriber.application(application, performFetchWithCompletionHandler: call.fetchHandler)
            return call.finish()
        }
    }

    static func handleEventsForBackgroundURLSession(_ me: Me, _ identifier: adh_string,
                                                    _ completion: adh_void_completion) -> adh_response {
        let identifier = identifier.string ?? ""
        return ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            let call = CompletionCall(instance: instance, event: .handleEventsForBackgroundURLSession,
                                      completion: .void(completion))
            instance.subscriber.application(application, handleEventsForBackgroundURLSession: identifier,
                                            completionHandler: call.voidHandler)
            return call.finish()
        }
    }
}
