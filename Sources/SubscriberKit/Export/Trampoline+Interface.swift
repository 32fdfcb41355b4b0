import SubscriberABI

// Interface, extensions, state restoration, scenes, WatchKit.
extension Trampoline {
    static func supportedInterfaceOrientations(_ me: Me, _ idiom: adh_idiom) -> Int64 {
        let idiom = UserInterfaceIdiom(rawValue: idiom) ?? .unspecified
        return ExportedInstance.with(me, fallback: ABI.orientationAnswer(nil)) {
            ABI.orientationAnswer($0.subscriber.application($1, supportedInterfaceOrientationsFor: idiom))
        }
    }

    static func shouldAllowExtensionPointIdentifier(_ me: Me, _ identifier: adh_string) -> adh_tristate {
        let identifier = identifier.string ?? ""
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) {
            ABI.tristate($0.subscriber.application($1, shouldAllowExtensionPointIdentifier: identifier))
        }
    }

    /// configuration_for_connecting. The answer's bytes live in the instance until the next call or
    /// `destroy`, as the header promises the host.
    static func configurationForConnecting(_ me: Me, _ sceneRole: adh_string) -> adh_string {
        let sceneRole = sceneRole.string ?? ""
        return ExportedInstance.with(me, fallback: .absent) { instance, application in
            let answer = instance.subscriber.application(application, configurationForConnecting: sceneRole)
            instance.configuration = answer.map { ABIBytes($0) }
            return instance.configuration?.string ?? .absent
        }
    }

    static func didDiscardSceneSessions(_ me: Me, _ count: Int64) {
        // Counts beyond Int's range cannot happen on 64-bit Linux; clamp rather than trap anyway.
        let count = Int(clamping: count)
        ExportedInstance.with(me, fallback: ()) { $0.subscriber.application($1, didDiscardSceneSessions: count) }
    }

    static func handleWatchKitExtensionRequest(_ me: Me, _ userInfoJSON: adh_string,
                                               _ reply: adh_json_completion) -> adh_response {
        let (userInfo, problem) = ABI.jsonObject(userInfoJSON, what: "WatchKit request userInfo")
        return ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            if let problem { instance.warn(problem) }
            let call = CompletionCall(instance: instance, event: .handleWatchKitExtensionRequest,
                                      completion: .json(reply))
            instance.subscriber.application(application, handleWatchKitExtensionRequest: userInfo,
                                            reply: call.objectHandler)
            return call.finish()
        }
    }
}
