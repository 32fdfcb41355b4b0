import SubscriberABI

extension Trampoline {
    /// will_finish_launching / did_finish_launching. Stores the payload's launch invocation in the
    /// instance, so that every later event's `application.launchInvocation` has it.
    static func launch(_ me: Me, _ payload: UnsafePointer<adh_launch>?, _ event: LifecycleEvent) -> adh_tristate {
        ExportedInstance.withInstance(me, fallback: ABI.tristate(nil)) { instance in
            var launch = DecodedLaunch.absent
            if let pointer = payload {
                let (decoded, fresh) = PayloadDecodeCache.shared.launch(pointer)
                launch = decoded
                if fresh { decoded.problems.forEach(instance.warn) }
            }
            instance.application.launchInvocation = launch.invocation
            let answer = event == .willFinishLaunching
                ? instance.subscriber.application(instance.application, willFinishLaunchingWithOptions: launch.options)
                : instance.subscriber.application(instance.application, didFinishLaunchingWithOptions: launch.options)
            return ABI.tristate(answer)
        }
    }
}

extension DecodedLaunch {
    /// What a NULL payload reads as: no options, an icon click.
    static var absent: DecodedLaunch {
        var payload = adh_launch()
        payload.invocation = adh_invocation_kind(ADH_INVOCATION_APP_ICON_CLICK)
        return DecodedLaunch(payload)
    }
}
