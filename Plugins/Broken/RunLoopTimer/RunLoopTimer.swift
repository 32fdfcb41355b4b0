// RunLoopTimer — a Swift plugin that schedules a Foundation `Timer` on `RunLoop.main` in one event and
// says in a later one whether it fired: the main run loop must turn between events, in process (under
// `apphost`'s run loop) and in an isolation child alike.
import Foundation
import SubscriberKit
import Synchronization

/// Whether the timer scheduled by `timer://schedule` has fired (set on the main thread by the timer).
private let fired = Atomic<Bool>(false)

/// `openURL`: `timer://schedule` schedules a one-shot timer of 1 ms on `RunLoop.main` and answers yes;
/// `timer://fired` answers whether it has fired since; any other URL, no opinion.
final class RunLoopTimer: AppDelegateSubscriberBase, InstantiableSubscriber, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        switch url.absoluteString {
        case "timer://schedule":
            let timer = Timer(fire: Date(timeIntervalSinceNow: 0.001), interval: 0, repeats: false) { [self] _ in
                fired.store(true, ordering: .sequentiallyConsistent)
                // RunLoop.main's timers fire on the main thread: the main actor's.
                MainActor.assumeIsolated { log("RunLoop timer fired") }
            }
            RunLoop.main.add(timer, forMode: .default)
            return true
        case "timer://fired":
            return fired.load(ordering: .sequentiallyConsistent)
        default:
            return nil
        }
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "dev.test.runlooptimer", name: "RunLoopTimer", version: "1.0.0",
                            subscribers: [RunLoopTimer.self])
}
