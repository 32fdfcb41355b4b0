// NearMiss — not in any target. Two subscribers ported from Expo as authors write them on a first
// try: they adopt the event's protocol but answer with a non-optional type, where the event's
// requirement says "or no opinion" (`Bool?`, `InterfaceOrientationMask?`). With one protocol per
// event this does not compile, and the compiler names the protocol and the near-miss method
// (SubscriberKitTests' NearMissTests type-checks this file and reads the diagnostics).
import Foundation
import SubscriberKit

/// Expo's `application(_:open:options:) -> Bool`, ported as is.
final class ExpoLinking: InstantiableSubscriber, OpenURLSubscriber {
    init(context: SubscriberContext) {}

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool {
        url.scheme == "expo"
    }
}

/// Expo's screen-orientation module, ported as is: it always has an opinion.
final class ExpoScreenOrientation: InstantiableSubscriber, SupportedInterfaceOrientationsSubscriber {
    init(context: SubscriberContext) {}

    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask {
        .portrait
    }
}
