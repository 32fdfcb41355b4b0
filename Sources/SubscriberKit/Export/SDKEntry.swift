import Foundation
import SubscriberABI

/// The Swift halves of a Swift plugin's vtable entries, one function per C signature: each decodes
/// the host's payload into ``EventArguments``, calls the instance's handler of `event` (the event
/// table's `install` passes it) and encodes the answer. Run on the main actor (``MainActorEntry``),
/// with the instance and its application borrowed, not retained (``ExportedInstance/with(_:fallback:_:)``).
///
/// An entry is only installed for an event the subscriber's type handles, so a missing handler (a
/// vtable used after `destroy`) answers what a NULL entry means: no opinion, nothing, declined.
@MainActor
enum SDKEntry {
    typealias Me = UnsafePointer<adh_subscriber>?

    // MARK: Notifications

    nonisolated static func notify(_ me: Me, _ event: LifecycleEvent) {
        onMain((me, event)) { SDKEntry.notified($0.0, $0.1, .none) }
    }

    nonisolated static func notifyBytes(_ me: Me, _ bytes: adh_bytes, _ event: LifecycleEvent) {
        onMain((me, bytes, event)) { SDKEntry.notified($0.0, $0.2, .deviceToken(Data($0.1.buffer))) }
    }

    nonisolated static func notifyError(_ me: Me, _ error: UnsafePointer<adh_error>?, _ event: LifecycleEvent) {
        onMain((me, error, event)) { SDKEntry.notified($0.0, $0.2, .error(SDKEntry.lifecycleError($0.1))) }
    }

    nonisolated static func notifyActivity(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?,
                                           _ event: LifecycleEvent) {
        onMain((me, activity, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ()) { instance, application in
                guard case .notify(let handler)? = instance.handler(arguments.2),
                      let activity = instance.decodedActivity(arguments.1) else { return }
                handler(application, .userActivity(activity))
            }
        }
    }

    nonisolated static func notifyTextError(_ me: Me, _ text: adh_string, _ error: UnsafePointer<adh_error>?,
                                            _ event: LifecycleEvent) {
        onMain((me, text, error, event)) {
            SDKEntry.notified($0.0, $0.3, .activityFailure(activityType: $0.1.string ?? "", error: SDKEntry.lifecycleError($0.2)))
        }
    }

    nonisolated static func notifyCount(_ me: Me, _ count: Int64, _ event: LifecycleEvent) {
        // Counts beyond Int's range cannot happen on 64-bit Linux; clamp rather than trap anyway.
        onMain((me, count, event)) { SDKEntry.notified($0.0, $0.2, .count(Int(clamping: $0.1))) }
    }

    private static func notified(_ me: Me, _ event: LifecycleEvent, _ arguments: @autoclosure () -> EventArguments) {
        ExportedInstance.with(me, fallback: ()) { instance, application in
            guard case .notify(let handler)? = instance.handler(event) else { return }
            handler(application, arguments())
        }
    }

    // MARK: Answers at once

    nonisolated static func ask(_ me: Me, _ event: LifecycleEvent) -> adh_tristate {
        onMain((me, event)) { SDKEntry.asked($0.0, $0.1, .none) }
    }

    nonisolated static func askText(_ me: Me, _ text: adh_string, _ event: LifecycleEvent) -> adh_tristate {
        onMain((me, text, event)) { SDKEntry.asked($0.0, $0.2, .text($0.1.string ?? "")) }
    }

    /// will_finish_launching / did_finish_launching. Stores the payload's launch invocation in the
    /// instance, so that every later event's `application.launchInvocation` has it.
    nonisolated static func askLaunch(_ me: Me, _ payload: UnsafePointer<adh_launch>?, _ event: LifecycleEvent) -> adh_tristate {
        onMain((me, payload, event)) { arguments in
            ExportedInstance.withInstance(arguments.0, fallback: ABI.tristate(nil)) { instance in
                var launch = DecodedLaunch.absent
                if let pointer = arguments.1 {
                    let (decoded, fresh) = PayloadDecodeCache.shared.launch(pointer)
                    launch = decoded
                    if fresh { decoded.problems.forEach(instance.warn) }
                }
                instance.application.launchInvocation = launch.invocation
                guard case .bool(let handler)? = instance.handler(arguments.2) else { return ABI.tristate(nil) }
                return ABI.tristate(handler(instance.application, .launch(launch.options)))
            }
        }
    }

    /// open_url. A payload whose URL is not an absolute URL cannot reach the handler: no opinion.
    nonisolated static func askOpenURL(_ me: Me, _ request: UnsafePointer<adh_open_url>?, _ event: LifecycleEvent) -> adh_tristate {
        onMain((me, request, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ABI.tristate(nil)) { instance, application in
                guard let pointer = arguments.1, case .bool(let handler)? = instance.handler(arguments.2) else {
                    return ABI.tristate(nil)
                }
                let (decoded, fresh) = PayloadDecodeCache.shared.openURL(pointer)
                if fresh { decoded.problems.forEach(instance.warn) }
                guard let url = decoded.url else { return ABI.tristate(nil) }
                return ABI.tristate(handler(application, .openURL(url, decoded.options)))
            }
        }
    }

    nonisolated static func askOrientations(_ me: Me, _ idiom: adh_idiom, _ event: LifecycleEvent) -> Int64 {
        onMain((me, idiom, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ABI.orientationAnswer(nil)) { instance, application in
                guard case .orientationMask(let handler)? = instance.handler(arguments.2) else {
                    return ABI.orientationAnswer(nil)
                }
                let idiom = UserInterfaceIdiom(rawValue: arguments.1) ?? .unspecified
                return ABI.orientationAnswer(handler(application, .idiom(idiom)))
            }
        }
    }

    /// configuration_for_connecting. The answer's bytes live in the instance until the next call or
    /// `destroy`, as the header promises the host.
    nonisolated static func askConfiguration(_ me: Me, _ sceneRole: adh_string, _ event: LifecycleEvent) -> adh_string {
        onMain((me, sceneRole, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: .absent) { instance, application in
                guard case .configurationName(let handler)? = instance.handler(arguments.2) else { return .absent }
                let answer = handler(application, .text(arguments.1.string ?? ""))
                instance.configuration = answer.map { ABIBytes($0) }
                return instance.configuration?.string ?? .absent
            }
        }
    }

    private static func asked(_ me: Me, _ event: LifecycleEvent, _ arguments: @autoclosure () -> EventArguments) -> adh_tristate {
        ExportedInstance.with(me, fallback: ABI.tristate(nil)) { instance, application in
            guard case .bool(let handler)? = instance.handler(event) else { return ABI.tristate(nil) }
            return ABI.tristate(handler(application, arguments()))
        }
    }

    // MARK: Answers through completions

    nonisolated static func fetch(_ me: Me, _ completion: adh_fetch_completion, _ event: LifecycleEvent) -> adh_response {
        onMain((me, completion, event)) { SDKEntry.fetched($0.0, $0.2, .fetch($0.1), .none) }
    }

    nonisolated static func fetchUserInfo(_ me: Me, _ userInfo: adh_string, _ completion: adh_fetch_completion,
                                          _ event: LifecycleEvent) -> adh_response {
        onMain((me, userInfo, completion, event)) { arguments in
            let (userInfo, problem) = ABI.jsonObject(arguments.1, what: "\(arguments.3) userInfo")
            return SDKEntry.fetched(arguments.0, arguments.3, .fetch(arguments.2), .userInfo(userInfo), problem: problem)
        }
    }

    private static func fetched(_ me: Me, _ event: LifecycleEvent, _ completion: CompletionCall.Completion,
                                _ arguments: EventArguments, problem: String? = nil) -> adh_response {
        ExportedInstance.with(me, fallback: ABI.declines) { instance, application in
            guard case .fetch(let handler)? = instance.handler(event) else { return ABI.declines }
            if let problem { instance.warn(problem) }
            let call = CompletionCall(instance: instance, event: event, completion: completion)
            handler(application, arguments, call.fetchHandler)
            return call.finish()
        }
    }

    nonisolated static func doneText(_ me: Me, _ text: adh_string, _ completion: adh_void_completion,
                                     _ event: LifecycleEvent) -> adh_response {
        onMain((me, text, completion, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ABI.declines) { instance, application in
                guard case .done(let handler)? = instance.handler(arguments.3) else { return ABI.declines }
                let call = CompletionCall(instance: instance, event: arguments.3, completion: .void(arguments.2))
                handler(application, .text(arguments.1.string ?? ""), call.voidHandler)
                return call.finish()
            }
        }
    }

    nonisolated static func shortcut(_ me: Me, _ item: UnsafePointer<adh_shortcut_item>?,
                                     _ completion: adh_bool_completion, _ event: LifecycleEvent) -> adh_response {
        onMain((me, item, completion, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ABI.declines) { instance, application in
                guard let pointer = arguments.1, case .boolCompletion(let handler)? = instance.handler(arguments.3) else {
                    return ABI.declines
                }
                let (decoded, fresh) = PayloadDecodeCache.shared.shortcutItem(pointer)
                if fresh { decoded.problems.forEach(instance.warn) }
                let call = CompletionCall(instance: instance, event: arguments.3, completion: .bool(arguments.2))
                handler(application, .shortcutItem(decoded.item), call.boolHandler)
                return call.finish()
            }
        }
    }

    /// continue_user_activity. The restoration list travels as a JSON array of strings; the answer
    /// returned says whether it will be called, so a decline means nothing here.
    nonisolated static func restoration(_ me: Me, _ activity: UnsafePointer<adh_user_activity>?,
                                        _ restoration: adh_json_completion, _ event: LifecycleEvent) -> adh_tristate {
        onMain((me, activity, restoration, event)) { arguments in
            ExportedInstance.with(arguments.0, fallback: ABI.tristate(nil)) { instance, application in
                guard case .restoration(let handler)? = instance.handler(arguments.3),
                      let activity = instance.decodedActivity(arguments.1) else { return ABI.tristate(nil) }
                let restoration = UncheckedSendable(arguments.2)
                let restorationHandler = CompletionHandler<[String]>({ identifiers in
                    let json = JSONValue.array(identifiers.map { .string($0) }).serialized()
                    withABIString(json) { restoration.value.call?(restoration.value.context, $0) }
                })
                return ABI.tristate(handler(application, .userActivity(activity), restorationHandler))
            }
        }
    }

    nonisolated static func replyUserInfo(_ me: Me, _ userInfo: adh_string, _ reply: adh_json_completion,
                                          _ event: LifecycleEvent) -> adh_response {
        onMain((me, userInfo, reply, event)) { arguments in
            let (userInfo, problem) = ABI.jsonObject(arguments.1, what: "\(arguments.3) userInfo")
            return ExportedInstance.with(arguments.0, fallback: ABI.declines) { instance, application in
                guard case .dictionary(let handler)? = instance.handler(arguments.3) else { return ABI.declines }
                if let problem { instance.warn(problem) }
                let call = CompletionCall(instance: instance, event: arguments.3, completion: .json(arguments.2))
                handler(application, .userInfo(userInfo), call.objectHandler)
                return call.finish()
            }
        }
    }

    private static func lifecycleError(_ error: UnsafePointer<adh_error>?) -> LifecycleError {
        error.map(LifecycleError.init(abi:)) ?? LifecycleError(domain: "", code: 0, message: "")
    }
}

/// Runs `body(arguments)` on the main actor. A file-level function: a closure that called a static
/// method would capture the metatype, and `body` must capture nothing (``MainActorEntry``).
@inline(__always)
private func onMain<Arguments, Result>(_ arguments: Arguments,
                                       _ body: @escaping @MainActor (Arguments) -> Result) -> Result {
    MainActorEntry.run(arguments, body)
}

extension DecodedLaunch {
    /// What a NULL payload reads as: no options, an icon click.
    static var absent: DecodedLaunch {
        var payload = adh_launch()
        payload.invocation = adh_invocation_kind(ADH_INVOCATION_APP_ICON_CLICK)
        return DecodedLaunch(payload)
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
