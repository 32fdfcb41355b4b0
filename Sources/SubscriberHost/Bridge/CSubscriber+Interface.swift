import SubscriberABI
import SubscriberKit

// Interface, extensions, state restoration, scenes, WatchKit.
extension CSubscriber {
    /// application(_:supportedInterfaceOrientationsFor:) through `supported_interface_orientations`.
    public func application(_ application: Application,
                            supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? {
        guard let entry = vtable.supported_interface_orientations else { return nil }
        let raw = entry(me, idiom.rawValue)
        if raw >= 0 && ABI.orientationMask(fromAnswer: raw) == nil {
            context.log("supportedInterfaceOrientations returned \(raw), expected a 32-bit mask or a negative value "
                        + "(no opinion); read as no opinion", level: .warning)
        }
        return ABI.orientationMask(fromAnswer: raw)
    }

    /// application(_:shouldAllowExtensionPointIdentifier:) through `should_allow_extension_point_identifier`.
    public func application(_ application: Application,
                            shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? {
        guard let entry = vtable.should_allow_extension_point_identifier else { return nil }
        return answer(withABIString(extensionPointIdentifier) { entry(me, $0) }, of: .shouldAllowExtensionPointIdentifier)
    }

    /// applicationShouldSaveSecureApplicationState(_:) through `should_save_secure_application_state`.
    public func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? {
        guard let entry = vtable.should_save_secure_application_state else { return nil }
        return answer(entry(me), of: .shouldSaveSecureApplicationState)
    }

    /// applicationShouldRestoreSecureApplicationState(_:) through `should_restore_secure_application_state`.
    public func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? {
        guard let entry = vtable.should_restore_secure_application_state else { return nil }
        return answer(entry(me), of: .shouldRestoreSecureApplicationState)
    }

    /// application(_:configurationForConnecting:) through `configuration_for_connecting`; the
    /// plugin's bytes are copied at once, as the header asks; an answer that cannot be read (see
    /// ``ABIStringProblem``) is reported and read as no opinion.
    public func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? {
        guard let entry = vtable.configuration_for_connecting else { return nil }
        let answer = withABIString(sceneRole) { entry(me, $0) }
        do throws(ABIStringProblem) {
            return try answer.checkedString()
        } catch {
            context.log("configurationForConnecting: \(error); read as no opinion", level: .error)
            return nil
        }
    }

    /// application(_:didDiscardSceneSessions:) through `did_discard_scene_sessions`.
    public func application(_ application: Application, didDiscardSceneSessions count: Int) {
        vtable.did_discard_scene_sessions?(me, Int64(count))
    }

    /// application(_:handleWatchKitExtensionRequest:reply:) through `handle_watchkit_extension_request`.
    public func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                            reply: CompletionHandler<JSONObject>) {
        guard let entry = vtable.handle_watchkit_extension_request else { return reply.decline() }
        let userInfo = PayloadEncodeCache.shared.watchKitUserInfo(userInfo)
        let completion = CompletionBridge.reply(reply, event: .handleWatchKitExtensionRequest,
                                                context: contextReference)
        settle(entry(me, userInfo.string, completion), completion.context, reply, .handleWatchKitExtensionRequest)
    }
}
