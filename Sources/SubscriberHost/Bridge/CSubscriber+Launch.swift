import SubscriberABI
import SubscriberKit

// Launch and the argument-less notifications.
extension CSubscriber {
    /// application(_:willFinishLaunchingWithOptions:) through `will_finish_launching`. The payload
    /// carries `application.launchInvocation` (classified from the options when unset).
    public func application(_ application: Application,
                            willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        launch(vtable.will_finish_launching, application, launchOptions, .willFinishLaunching)
    }

    /// application(_:didFinishLaunchingWithOptions:) through `did_finish_launching`.
    public func application(_ application: Application,
                            didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        launch(vtable.did_finish_launching, application, launchOptions, .didFinishLaunching)
    }

    private typealias LaunchEntry = @convention(c) (UnsafePointer<adh_subscriber>?, UnsafePointer<adh_launch>?)
        -> adh_tristate

    private func launch(_ entry: LaunchEntry?, _ application: Application, _ options: LaunchOptions,
                        _ event: LifecycleEvent) -> Bool? {
        guard let entry else { return nil }
        let invocation = application.launchInvocation ?? LaunchInvocation(classifying: options)
        let payload = PayloadEncodeCache.shared.launch(options: options, invocation: invocation)
        return answer(payload.withPointer { entry(me, $0) }, of: event)
    }

    /// applicationDidBecomeActive(_:) through `did_become_active`.
    public func applicationDidBecomeActive(_ application: Application) { notify(vtable.did_become_active) }
    /// applicationWillResignActive(_:) through `will_resign_active`.
    public func applicationWillResignActive(_ application: Application) { notify(vtable.will_resign_active) }
    /// applicationDidEnterBackground(_:) through `did_enter_background`.
    public func applicationDidEnterBackground(_ application: Application) { notify(vtable.did_enter_background) }
    /// applicationWillEnterForeground(_:) through `will_enter_foreground`.
    public func applicationWillEnterForeground(_ application: Application) { notify(vtable.will_enter_foreground) }
    /// applicationWillTerminate(_:) through `will_terminate`.
    public func applicationWillTerminate(_ application: Application) { notify(vtable.will_terminate) }
    /// applicationDidReceiveMemoryWarning(_:) through `did_receive_memory_warning`.
    public func applicationDidReceiveMemoryWarning(_ application: Application) {
        notify(vtable.did_receive_memory_warning)
    }
    /// applicationSignificantTimeChange(_:) through `significant_time_change`.
    public func applicationSignificantTimeChange(_ application: Application) { notify(vtable.significant_time_change) }
    /// applicationProtectedDataWillBecomeUnavailable(_:) through `protected_data_will_become_unavailable`.
    public func applicationProtectedDataWillBecomeUnavailable(_ application: Application) {
        notify(vtable.protected_data_will_become_unavailable)
    }
    /// applicationProtectedDataDidBecomeAvailable(_:) through `protected_data_did_become_available`.
    public func applicationProtectedDataDidBecomeAvailable(_ application: Application) {
        notify(vtable.protected_data_did_become_available)
    }

    private func notify(_ entry: (@convention(c) (UnsafePointer<adh_subscriber>?) -> Void)?) {
        entry?(me)
    }
}
