import SubscriberABI

// URLs, user activities and shortcut items.
extension Trampoline {
    /// open_url. A payload whose URL is not an absolute URL cannot reach the method: no opinion.
    static func openURL(_ me: Me, _ request: UnsafePointer<adh_open_url>?) -> adh_tristate {
        let request = UncheckedSendable(request)
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) { instance in
            guard let pointer = request.value else { return ABI.tristate(nil) }
            let (decoded, fresh) = PayloadDecodeCache.shared.openURL(pointer)
            if fresh { decoded.problems.forEach(instance.warn) }
            guard let url = decoded.url else { return ABI.tristate(nil) }
            return ABI.tristate(instance.subscriber.application(instance.application, open: url, options: decoded.options))
        }
    }

    static func willContinueUserActivity(_ me: Me, _ activityType: adh_string) -> adh_tristate {
        let activityType = activityType.string ?? ""
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) {
            ABI.tristate($0.subscriber.application($0.application, willContinueUserActivityWithType: activityType))
        }
    }

    /// continue_user_activity. The restoration list travels as a JSON array of strings.
    static func continueUserActivity(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?,
                                     _ restoration: adh_json_completion) -> adh_tristate {
        let activity = UncheckedSendable(activity)
        let restoration = UncheckedSendable(restoration)
        return ExportedInstance.with(me, fallback: ABI.tristate(nil)) { instance in
            guard let activity = instance.decodedActivity(activity.value) else { return ABI.tristate(nil) }
            // A decline means nothing here: the returned answer says whether the handler will be called.
            let handler = CompletionHandler<[String]>({ identifiers in
                let json = JSONValue.array(identifiers.map { .string($0) }).serialized()
                withABIString(json) { restoration.value.call?(restoration.value.context, $0) }
            })
            return ABI.tristate(instance.subscriber.application(instance.application, continue: activity,
                                                                restorationHandler: handler))
        }
    }

    static func didUpdateUserActivity(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?) {
        let activity = UncheckedSendable(activity)
        ExportedInstance.with(me, fallback: ()) { instance in
            guard let activity = instance.decodedActivity(activity.value) else { return }
            instance.subscriber.application(instance.application, didUpdate: activity)
        }
    }

    static func didFailToContinueUserActivity(_ me: Me, _ activityType: adh_string,
                                              _ error: UnsafePointer<adh_error>?) {
        let activityType = activityType.string ?? ""
        let error = error.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
        ExportedInstance.with(me, fallback: ()) {
            $0.subscriber.application($0.application, didFailToContinueUserActivityWithType: activityType, error: error)
        }
    }

    static func performActionForShortcutItem(_ me: Me, _ item: UnsafePointer<adh_shortcut_item>?,
                                             _ completion: adh_bool_completion) -> adh_response {
        let item = UncheckedSendable(item)
        let completion = UncheckedSendable(completion)
        return ExportedInstance.with(me, fallback: ABI.declines) { instance in
            guard let pointer = item.value else { return ABI.declines }
            let (decoded, fresh) = PayloadDecodeCache.shared.shortcutItem(pointer)
            if fresh { decoded.problems.forEach(instance.warn) }
            let call = CompletionCall(instance: instance, event: .performActionForShortcutItem)
            let handler: CompletionHandler<Bool> = call.handler { succeeded in
                completion.value.call?(completion.value.context, ABI.tristate(succeeded))
            }
            instance.subscriber.application(instance.application, performActionFor: decoded.item,
                                            completionHandler: handler)
            return call.finish()
        }
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
