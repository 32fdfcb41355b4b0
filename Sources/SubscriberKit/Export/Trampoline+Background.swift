import Foundation
import SubscriberABI

// Remote notifications and background work.
extension Trampoline {
    static func didRegisterForRemoteNotifications(_ me: Me, _ token: adh_bytes) {
        let token = Data(token.buffer)
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($0.application, didRegisterForRemoteNotificationsWithDeviceToken: token)
        }
    }

    static func didFailToRegisterForRemoteNotifications(_ me: Me, _ error: UnsafePointer<adh_error>?) {
        let error = error.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($0.application, didFailToRegisterForRemoteNotificationsWithError: error)
        }
    }

    static func didReceiveRemoteNotification(_ me: Me, _ userInfoJSON: adh_string,
                                             _ completion: adh_fetch_completion) -> adh_response {
        let (userInfo, problem) = ABI.jsonObject(userInfoJSON, what: "remote notification userInfo")
        let completion = UncheckedSendable(completion)
        return ExportedInstance.with(me, fallback: ABI.declines) { instance in
            if let problem { instance.warn(problem) }
            let call = CompletionCall(instance: instance, event: .didReceiveRemoteNotification)
            let handler: CompletionHandler<BackgroundFetchResult> = call.handler { result in
                completion.value.call?(completion.value.context, result.rawValue)
            }
            instance.subscriber.application(instance.application, didReceiveRemoteNotification: userInfo,
                                            fetchCompletionHandler: handler)
            return call.finish()
        }
    }

    static func performFetch(_ me: Me, _ completion: adh_fetch_completion) -> adh_response {
        let completion = UncheckedSendable(completion)
        return ExportedInstance.with(me, fallback: ABI.declines) { instance in
            let call = CompletionCall(instance: instance, event: .performFetch)
            let handler: CompletionHandler<BackgroundFetchResult> = call.handler { result in
                completion.value.call?(completion.value.context, result.rawValue)
            }
            instance.subscriber.application(instance.application, performFetchWithCompletionHandler: handler)
            return call.finish()
        }
    }

    static func handleEventsForBackgroundURLSession(_ me: Me, _ identifier: adh_string,
                                                    _ completion: adh_void_completion) -> adh_response {
        let identifier = identifier.string ?? ""
        let completion = UncheckedSendable(completion)
        return ExportedInstance.with(me, fallback: ABI.declines) { instance in
            let call = CompletionCall(instance: instance, event: .handleEventsForBackgroundURLSession)
            let handler: CompletionHandler<Void> = call.handler { _ in
                completion.value.call?(completion.value.context)
            }
            instance.subscriber.application(instance.application, handleEventsForBackgroundURLSession: identifier,
                                            completionHandler: handler)
            return call.finish()
        }
    }
}
