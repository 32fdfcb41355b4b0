// NearMissSubscriber — a Swift plugin whose event-shaped methods are never called, for the
// conformance kit's `events.shaped-methods` check. It compiles and loads, and every other check
// passes: the SDK calls a method only when the type adopts the event's protocol and the method
// satisfies its requirement exactly, so these methods are silently dead code. The kit reads them
// from the plugin's symbols and names each one.
import Foundation
import SubscriberKit

/// Adopts DidBecomeActiveSubscriber properly, and carries Expo's openURL handler as ported: `-> Bool`
/// where OpenURLSubscriber's requirement says `-> Bool?` (adopting the protocol would not compile,
/// so the port left it out). Never called: a near miss.
final class NearMissSubscriber: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    func applicationDidBecomeActive(_ application: Application) {
        log("active")
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool {
        url.scheme == "nearmiss"
    }
}

/// UIKit-style methods on a subscriber that adopts one event protocol properly (so it responds to an
/// event): the orientation handler with a non-optional mask (a near miss), and an exact
/// willResignActive handler (never called: the type does not adopt WillResignActiveSubscriber).
final class LegacyOrientationLock: AppDelegateSubscriberBase, InstantiableSubscriber, DidEnterBackgroundSubscriber {
    func applicationDidEnterBackground(_ application: Application) {
        log("background")
    }

    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask {
        .portrait
    }

    func applicationWillResignActive(_ application: Application) {
        log("resigning")
    }
}

/// A subscriber class other subscribers build on: its events are fixed here, where it declares
/// InstantiableSubscriber.
class ParentSubscriber: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    func applicationDidBecomeActive(_ application: Application) {}
}

/// Adds OpenURLSubscriber with the exact method: it compiles, the symbols show the conformance, and
/// the method is never called (the events were fixed at ParentSubscriber).
final class LateAdopter: ParentSubscriber, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

/// A helper that is no subscriber, with methods that look like handlers: not judged (nothing makes
/// the SDK call a helper's methods, and nobody expects it to).
final class DeepLinkParser {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool {
        url.host != nil
    }

    func applicationWillResignActive(_ application: Application) {}
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "dev.appdelegatehost.fixture.near-miss", name: "NearMissSubscriber", version: "1.0.0",
                            subscribers: [NearMissSubscriber.self, LegacyOrientationLock.self, LateAdopter.self])
}
