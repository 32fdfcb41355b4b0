import SubscriberABI

// URLs, user activities and shortcut items.
extension Trampoline {
    /// open_url. A payload whose URL is not an absolute URL cannot reach the method: no opinion.
    static func openURL(_ me: Me, _ request: UnsafePointer<adh_open_url>?) -> adh_tristate {
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) { instance, application in
            guard let pointer = request else { return ABI.tristate(nil) }
            let (decoded, fresh) = PayloadDecodeCache.shared.openURL(pointer)
            if fresh { decoded.problems.forEach(instance.warn) }
            return ABI.tristate(decoded.deliver(to: instance.subscriber, application))
        }
    }

    static func willContinueUserActivity(_ me: Me, _ activityType: adh_string) -> adh_tristate {
        let activityType = activityType.string ?? ""
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) {
            ABI.tristate($0.subscriber.application($1, willContinueUserActivityWithType: activityType))
        }
    }

    /// continue_user_activity. The restoration list travels as a JSON array of strings.
    static func continueUserActivity(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?,
                                     _ restoration: adh_json_completion) -> adh_tristate {
        let restoration = UncheckedSendable(restoration)
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) { instance, application in
            guard let activity = instance.decodedActivity(activity) else { return ABI.tristate(nil) }
            // A decline means nothing here: the returned answer says whether the handler will be called.
            let handler = CompletionHandler<[String]>({ identifiers in
                let json = JSONValue.array(identifiers.map { .string($0) }).serialized()
                withABIString(json) { restoration.value.call?(restoration.value.context, $0) }
            })
            return ABI.tristate(instance.subscriber.application(application, continue: activity,
                                                                restorationHandler: handler))
        }
    }

    static func didUpdateUserActivity(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?) {
        ExportedInstance.with(me, fallback: ()) { instance, application in
            guard let activity = instance.decodedActivity(activity) else { return }
            instance.subscriber.application(application, didUpdate: activity)
        }
    }

    static func didFailToContinueUserActivity(_ me: Me, _ activityType: adh_string,
                                              _ error: UnsafePointer<adh_error>?) {
        let activityType = activityType.string ?? ""
        let error = error.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($1, didFailToContinueUserActivityWithType: activityType, error: error)
        }
    }

    static func performActionForShortcutItem(_ me: Me, _ item: UnsafePointer<adh_shortcut_item>?,
                                             _ completion: adh_bool_completion) -> adh_response {
        return ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            guard let pointer = item else { return ABI.declines }
            let (decoded, fresh) = PayloadDecodeCache.shared.shortcutItem(pointer)
            if fresh { decoded.problems.forEach(instance.warn) }
            let call = CompletionCall(instance: instance, event: .performActionForShortcutItem,
                                      completion: .bool(completion))
            instance.subscriber.application(application, performActionFor: decoded.item,
                                            completionHandler: call.boolHandler)
            return call.finish()
        }
    }
}

extension DecodedOpenURL {
    /// `application(_:open:options:)` on `subscriber` with this payload; nil (no opinion) without
    /// a URL. A method of the payload, so that its URL and options are borrowed, not copied.
    @MainActor func deliver(to subscriber: any AppDelegateSubscriber, _ application: Application) -> Bool? {
        guard url != nil else { return nil }
        return subscriber.application(application, open: url.unsafelyUnwrapped, options: options)
    }
}

extension ExportedInstance {
    /// The activity at `pointer` (decoded once per serial); nil for a NULL payload.
    func decodedActivity(_ pointer: UnsafePointer<adh_user_activity>?) -> UserActivity? {
        guard let pointer else { return nil }
        let (decoded, fresh) = PayloadDecodeCache.shared.userActivity(pointer)
        if fresh { decoded.problems.forEach(warn) }
        return decoded.activity
    }
}
