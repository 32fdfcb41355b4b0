import SubscriberHost
import SubscriberKit

/// One canonical call: an event with ordinary, well-formed arguments, and a label for evidence.
struct CanonicalCall: Sendable {
    let call: EventCall
    /// "openURL #2": the event and which of its canonical inputs.
    let label: String

    var event: LifecycleEvent { call.event }
}

/// The canonical input of every event: what a real app sends, one or more variants each, in the
/// order of a plausible app life (launch, foreground, URLs, notifications, background, terminate).
/// Written in the event-script format (docs/cli.md) so that anyone can read, and replay, them.
enum CanonicalInput {
    static let script = #"""
    {"event": "willFinishLaunching"}
    {"event": "willFinishLaunching", "launchOptions": {"url": "news://article/42", "sourceApplication": "com.example.mail"}}
    {"event": "didFinishLaunching"}
    {"event": "didFinishLaunching", "launchOptions": {"userActivity": {"activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/42"}}}
    {"event": "didFinishLaunching", "launchOptions": {"remoteNotification": {"aps": {"alert": "Breaking news"}, "articles": [42]}}}
    {"event": "didFinishLaunching", "launchOptions": {"shortcutItem": {"type": "com.example.news.search", "title": "Search"}}}
    {"event": "didFinishLaunching", "launchOptions": {"backgroundFetch": true}}
    {"event": "didBecomeActive"}
    {"event": "supportedInterfaceOrientations", "idiom": "phone"}
    {"event": "supportedInterfaceOrientations", "idiom": "pad"}
    {"event": "configurationForConnecting", "sceneRole": "UIWindowSceneSessionRoleApplication"}
    {"event": "didRegisterForRemoteNotifications", "deviceToken": "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"}
    {"event": "didFailToRegisterForRemoteNotifications", "error": {"domain": "NSCocoaErrorDomain", "code": 3010, "message": "remote notifications are not supported"}}
    {"event": "openURL", "url": "news://article/42"}
    {"event": "openURL", "url": "https://news.example.com/article/42", "options": {"sourceApplication": "com.apple.mobilesafari", "openInPlace": false}}
    {"event": "willContinueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb"}
    {"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/42"}
    {"event": "continueUserActivity", "activityType": "com.example.news.reading", "userInfo": {"articleID": 42}}
    {"event": "didUpdateUserActivity", "activityType": "com.example.news.reading", "userInfo": {"articleID": 42}}
    {"event": "didFailToContinueUserActivity", "activityType": "com.example.news.reading", "error": {"domain": "NSCocoaErrorDomain", "code": 4608, "message": "the activity could not be continued"}}
    {"event": "performActionForShortcutItem", "type": "com.example.news.search", "title": "Search", "userInfo": {}}
    {"event": "shouldAllowExtensionPointIdentifier", "identifier": "com.apple.keyboard-service"}
    {"event": "didReceiveRemoteNotification", "userInfo": {"aps": {"content-available": 1}, "articles": [{"id": 42}]}}
    {"event": "didReceiveRemoteNotification", "userInfo": {"aps": {"content-available": 1}}}
    {"event": "handleWatchKitExtensionRequest", "userInfo": {"request": "latestHeadlines"}}
    {"event": "significantTimeChange"}
    {"event": "didReceiveMemoryWarning"}
    {"event": "willResignActive"}
    {"event": "didEnterBackground"}
    {"event": "shouldSaveSecureApplicationState"}
    {"event": "protectedDataWillBecomeUnavailable"}
    {"event": "performFetch"}
    {"event": "handleEventsForBackgroundURLSession", "identifier": "com.example.news.background-download"}
    {"event": "protectedDataDidBecomeAvailable"}
    {"event": "willEnterForeground"}
    {"event": "shouldRestoreSecureApplicationState"}
    {"event": "didDiscardSceneSessions", "count": 2}
    {"event": "willTerminate"}
    """#

    /// Every canonical call, in script order. A line that does not parse is a bug of this file,
    /// caught by the kit's tests.
    static let calls: [CanonicalCall] = {
        var seen: [LifecycleEvent: Int] = [:]
        return script.split(separator: "\n").map { line in
            do {
                let call = try EventCall(json: try JSONValue(parsing: String(line)))
                seen[call.event, default: 0] += 1
                return CanonicalCall(call: call, label: "\(call.event) #\(seen[call.event]!)")
            } catch {
                preconditionFailure("CanonicalInput: bad line \(line): \(error)")
            }
        }
    }()

    /// The canonical calls of the events in `events`, in script order.
    static func calls(for events: Set<LifecycleEvent>) -> [CanonicalCall] {
        calls.filter { events.contains($0.event) }
    }
}
