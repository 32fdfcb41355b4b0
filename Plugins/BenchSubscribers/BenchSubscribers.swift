// BenchSubscribers — the subscriber types of subscriber-bench's dispatch and load sections. It registers them
// in-process (this target is linked into subscriber-bench) and loads the very same types from
// libBenchSubscribers.so through the C ABI, so the difference between the two is the host's and the
// bridge's cost, nothing else.
//
// Each type does as little as an event allows, so that what is measured is the dispatch, not them.
import Dispatch
import Foundation
import Glibc
import SubscriberKit
import SubscriberEventModel

/// Counts `applicationDidReceiveMemoryWarning` calls: the void event (one UIKit delivers to a
/// running app any number of times).
final class VoidCounter: InstantiableSubscriber, DidReceiveMemoryWarningSubscriber {
    /// How many times the event arrived.
    private(set) var count = 0

    init(context: SubscriberContext) {}

    func applicationDidReceiveMemoryWarning(_ application: Application) {
        count &+= 1
    }
}

/// Answers `openURL` from the URL's host: true for its own host (option `"host"`, default
/// `"bench.example.com"`), false for any other.
final class URLMatcher: InstantiableSubscriber, OpenURLSubscriber {
    private let host: String

    init(context: SubscriberContext) {
        host = context.options["host"]?.stringValue ?? "bench.example.com"
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.host == host
    }
}

/// Answers `scene.openURLContexts` like ``URLMatcher``: true when a URL is of its own host.
final class SceneURLMatcher: InstantiableSubscriber, SceneOpenURLContextsSubscriber {
    private let host: String

    init(context: SubscriberContext) {
        host = context.options["host"]?.stringValue ?? "bench.example.com"
    }

    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        urlContexts.contains { $0.url.host == host }
    }
}

/// Answers `performFetch` inside the call: the completion aggregation without any thread hop.
final class SyncFetcher: InstantiableSubscriber, PerformFetchSubscriber {
    init(context: SubscriberContext) {}

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler(.newData)
    }
}

/// Answers `performFetch` from another thread (DispatchQueue.global), as a real fetch does.
final class AsyncFetcher: InstantiableSubscriber, PerformFetchSubscriber {
    init(context: SubscriberContext) {}

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        DispatchQueue.global().async { completionHandler(.noData) }
    }
}

/// Answers `notifications.willPresent` inside the call with `.banner`: a completion event of its own
/// answer shape (the options' union), without any thread hop.
final class NotificationPresenter: InstantiableSubscriber, WillPresentNotificationSubscriber {
    init(context: SubscriberContext) {}

    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        completionHandler(.banner)
    }
}

/// The subscriber the load benchmark makes, one per plugin file. The benchmark loads N byte-identical
/// copies of this library, and a host refuses two subscribers of one name (load-time check 10), so
/// this type is named after the inode of the file its image was loaded from:
/// `LoadProbe@inode-1234567` (the copies lie in one folder, so one file system).
///
/// It responds to `applicationWillTerminate` and does nothing there: a subscriber that responds to no
/// event is never called by a host, and the conformance kit fails it (`subscriber.responds-to-events`).
final class LoadProbe: InstantiableSubscriber, WillTerminateSubscriber {
    /// `LoadProbe@inode-<inode of this image's file>`, computed once per image.
    static let subscriberName: String =
        imageInode(containing: #dsohandle).map(BenchSubscriberTypes.loadProbeName(inode:)) ?? "LoadProbe@unknown"

    init(context: SubscriberContext) {}

    func applicationWillTerminate(_ application: Application) {}
}

/// The inode of the file the image mapped at `address` was loaded from. `_dl_find_object` (glibc
/// 2.35) is a GNU extension, hence `-D_GNU_SOURCE` for this target; unlike `dladdr` it does not walk
/// every loaded image, which would make loading N copies quadratic in N.
///
/// A host loads the very file it checked through its descriptor, so the image is mapped as
/// /proc/self/fd/N, and N stays open: `fstat(N)` answers in about a microsecond. Reading the file's
/// name instead (`readlink` of that link) walks /proc and took about 30 µs per plugin with a thousand
/// descriptors open. An image loaded by its path is `stat`ed by that path.
private func imageInode(containing address: UnsafeRawPointer) -> UInt64? {
    var found = dl_find_object()
    guard _dl_find_object(UnsafeMutableRawPointer(mutating: address), &found) == 0,
          let name = found.dlfo_link_map?.pointee.l_name else { return nil }
    let descriptorLink = "/proc/self/fd/"
    let path = String(cString: name)
    var info = stat()
    if path.hasPrefix(descriptorLink), let fd = Int32(path.dropFirst(descriptorLink.count)) {
        guard fstat(fd, &info) == 0 else { return nil }
    } else {
        guard stat(name, &info) == 0 else { return nil }
    }
    return UInt64(info.st_ino)
}

/// The benchmark's subscriber types, for in-process registration.
public enum BenchSubscriberTypes {
    /// Counts the void event (`didBecomeActive`).
    public static var voidCounter: any InstantiableSubscriber.Type { VoidCounter.self }
    /// Answers `openURL` from the URL's host.
    public static var urlMatcher: any InstantiableSubscriber.Type { URLMatcher.self }
    /// Answers `scene.openURLContexts` from the URLs' host.
    public static var sceneURLMatcher: any InstantiableSubscriber.Type { SceneURLMatcher.self }
    /// Completes `performFetch` synchronously.
    public static var syncFetcher: any InstantiableSubscriber.Type { SyncFetcher.self }
    /// Answers `notifications.willPresent` synchronously.
    public static var notificationPresenter: any InstantiableSubscriber.Type { NotificationPresenter.self }
    /// Completes `performFetch` from DispatchQueue.global.
    public static var asyncFetcher: any InstantiableSubscriber.Type { AsyncFetcher.self }
    /// The name the load benchmark's subscriber has in a copy of the library whose file has `inode`.
    public static func loadProbeName(inode: UInt64) -> String { "LoadProbe@inode-\(inode)" }
    /// The `@_cdecl` entry symbol's plugin id.
    public static let pluginID = "dev.appdelegatehost.bench-subscribers"
    /// ``testabilityProbe()``'s symbol: a dynamic symbol of the library only when this module was
    /// compiled with `-enable-testing`.
    public static let testabilityProbeSymbol = "$s16BenchSubscribers16testabilityProbeyyF"
}

/// Never called. A testable build (`-enable-testing`, as `swift test -c release -Xswiftc -enable-testing`
/// makes, in place of the release build) gives every internal declaration public linkage, so this
/// function stays, exported; an ordinary build drops it. In a testable build the optimizer must also
/// keep the dynamic exclusivity checks on class properties another module could reach (VoidCounter's
/// `count &+= 1` calls `swift_beginAccess`: about 80 instructions a call, more than the rest of a
/// loaded void call), so subscriber-bench refuses to measure one (``BenchSubscriberTypes/testabilityProbeSymbol``).
@inline(never)
func testabilityProbe() {}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: BenchSubscriberTypes.pluginID, name: "Bench Subscribers", version: "1.0.0",
        vendor: "AppDelegateHost benchmark",
        subscribers: [VoidCounter.self, URLMatcher.self, SyncFetcher.self, AsyncFetcher.self, SceneURLMatcher.self, NotificationPresenter.self,
                      LoadProbe.self])
}
