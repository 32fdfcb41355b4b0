import Foundation
import SubscriberABI
import SubscriberKit

// The host side of each C signature (CEntry): encode the call's arguments into the header's payload,
// call the plugin's entry, decode its answer. Several events share a signature, so an event whose
// signature exists needs nothing here.
extension CSubscriber {
    /// The handler that calls the plugin's `entry` for `event`. It does nothing once the subscriber
    /// was destroyed.
    ///
    /// The handler holds this subscriber `unowned`: a strong capture would be a cycle (the subscriber
    /// owns its handlers), and a handler used after its subscriber is gone traps instead of reading
    /// freed memory.
    func handler(calling entry: CEntry, for event: LifecycleEvent) -> EventHandler {
        switch entry {
        case .notify(let entry):
            return .notify { [unowned self] _, _ in if isLive { entry(me) } }
        case .notifyBytes(let entry):
            return .notify { [unowned self] _, arguments in
                guard isLive else { return }
                arguments.deviceToken.withUnsafeBytes { raw in
                    entry(me, adh_bytes(data: raw.bindMemory(to: UInt8.self).baseAddress, length: raw.count))
                }
            }
        case .notifyError(let entry):
            return .notify { [unowned self] _, arguments in
                guard isLive else { return }
                arguments.error.withABIError { entry(me, $0) }
            }
        case .notifyActivity(let entry):
            return .notify { [unowned self] _, arguments in
                guard isLive else { return }
                PayloadEncodeCache.shared.userActivity(arguments.userActivity).withPointer { entry(me, $0) }
            }
        case .notifyTextError(let entry):
            return .notify { [unowned self] _, arguments in
                guard isLive else { return }
                withABIString(arguments.text) { text in arguments.error.withABIError { entry(me, text, $0) } }
            }
        case .notifyCount(let entry):
            return .notify { [unowned self] _, arguments in if isLive { entry(me, Int64(arguments.count)) } }
        case .ask(let entry):
            return .bool { [unowned self] _, _ in isLive ? answer(entry(me), of: event) : nil }
        case .askText(let entry):
            return .bool { [unowned self] _, arguments in
                isLive ? answer(withABIString(arguments.text) { entry(me, $0) }, of: event) : nil
            }
        case .askLaunch(let entry):
            // The payload carries `application.launchInvocation` (classified from the options when unset).
            return .bool { [unowned self] application, arguments in
                guard isLive else { return nil }
                let options = arguments.launchOptions
                let invocation = application.launchInvocation ?? LaunchInvocation(classifying: options)
                let payload = PayloadEncodeCache.shared.launch(options: options, invocation: invocation)
                return answer(payload.withPointer { entry(me, $0) }, of: event)
            }
        case .askOpenURL(let entry):
            return .bool { [unowned self] _, arguments in
                guard isLive else { return nil }
                let payload = PayloadEncodeCache.shared.openURL(url: arguments.url, options: arguments.openURLOptions)
                return answer(payload.withPointer { entry(me, $0) }, of: event)
            }
        case .askOrientations(let entry):
            return .orientationMask { [unowned self] _, arguments in
                guard isLive else { return nil }
                return orientations(entry(me, arguments.idiom.rawValue), of: event)
            }
        case .askConfiguration(let entry):
            return .configurationName { [unowned self] _, arguments in
                guard isLive else { return nil }
                return configurationName(withABIString(arguments.text) { entry(me, $0) }, of: event)
            }
        case .fetch(let entry):
            return .fetch { [unowned self] _, _, handler in
                guard isLive else { return handler.decline() }
                let completion = CompletionBridge.fetch(handler, event: event, context: contextReference)
                settle(entry(me, completion), completion.context, handler, event)
            }
        case .fetchUserInfo(let entry):
            return .fetch { [unowned self] _, arguments, handler in
                guard isLive else { return handler.decline() }
                let userInfo = PayloadEncodeCache.shared.notificationUserInfo(arguments.userInfo)
                let completion = CompletionBridge.fetch(handler, event: event, context: contextReference)
                settle(entry(me, userInfo.string, completion), completion.context, handler, event)
            }
        case .doneText(let entry):
            return .done { [unowned self] _, arguments, handler in
                guard isLive else { return handler.decline() }
                let completion = CompletionBridge.void(handler, event: event, context: contextReference)
                let response = withABIString(arguments.text) { entry(me, $0, completion) }
                settle(response, completion.context, handler, event)
            }
        case .shortcut(let entry):
            return .boolCompletion { [unowned self] _, arguments, handler in
                guard isLive else { return handler.decline() }
                let payload = PayloadEncodeCache.shared.shortcutItem(arguments.shortcutItem)
                let completion = CompletionBridge.bool(handler, event: event, context: contextReference)
                let response = payload.withPointer { entry(me, $0, completion) }
                settle(response, completion.context, handler, event)
            }
        case .restoration(let entry):
            return .restoration { [unowned self] _, arguments, handler in
                guard isLive else { return nil }
                let payload = PayloadEncodeCache.shared.userActivity(arguments.userActivity)
                let restoration = CompletionBridge.restoration(handler, event: event, context: contextReference)
                let raw = payload.withPointer { entry(me, $0, restoration) }
                CompletionBridge.endCallSite()
                let result = answer(raw, of: event)
                if result == true {
                    CompletionBridge.retireWhenAbandoned(restoration.context, handler)
                } else {
                    CompletionBridge.retire(restoration.context)
                }
                return result
            }
        case .replyUserInfo(let entry):
            return .dictionary { [unowned self] _, arguments, handler in
                guard isLive else { return handler.decline() }
                let userInfo = PayloadEncodeCache.shared.watchKitUserInfo(arguments.userInfo)
                let completion = CompletionBridge.reply(handler, event: event, context: contextReference)
                settle(entry(me, userInfo.string, completion), completion.context, handler, event)
            }
        }
    }

    /// An orientation answer, reporting a value that is neither a 32-bit mask nor negative.
    private func orientations(_ raw: Int64, of event: LifecycleEvent) -> InterfaceOrientationMask? {
        if raw >= 0 && ABI.orientationMask(fromAnswer: raw) == nil {
            context.log("\(event) returned \(raw), expected a 32-bit mask or a negative value "
                        + "(no opinion); read as no opinion", level: .warning)
        }
        return ABI.orientationMask(fromAnswer: raw)
    }

    /// A configuration name answer, reporting bytes that cannot be a string.
    private func configurationName(_ answer: adh_string, of event: LifecycleEvent) -> String? {
        do throws(ABIStringProblem) {
            return try answer.checkedString()
        } catch {
            context.log("\(event): \(error); read as no opinion", level: .error)
            return nil
        }
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
