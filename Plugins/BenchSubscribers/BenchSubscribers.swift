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

/// Counts `applicationDidBecomeActive` calls: the void event.
final class VoidCounter: InstantiableSubscriber, DidBecomeActiveSubscriber {
    /// How many times the event arrived.
    private(set) var count = 0

    init(context: SubscriberContext) {}

    func applicationDidBecomeActive(_ application: Application) {
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

/// The subscriber the load benchmark makes, one per plugin file. The benchmark loads N byte-identical
/// copies of this library, and a host refuses two subscribers of one name (load-time check 10), so
/// this type is named after the file its image was loaded from: `LoadProbe@libBench-0042.so`.
final class LoadProbe: InstantiableSubscriber {
    /// `LoadProbe@<file name of this image>`, computed once per image.
    static let subscriberName: String = "LoadProbe@" + (imageFileName(containing: #dsohandle) ?? "unknown")

    init(context: SubscriberContext) {}
}

/// The file name of the image mapped at `address`. `_dl_find_object` (glibc 2.35) is a GNU
/// extension, hence `-D_GNU_SOURCE` for this target; unlike `dladdr` it does not walk every loaded
/// image, which would make loading N copies quadratic in N.
private func imageFileName(containing address: UnsafeRawPointer) -> String? {
    var found = dl_find_object()
    guard _dl_find_object(UnsafeMutableRawPointer(mutating: address), &found) == 0,
          let name = found.dlfo_link_map?.pointee.l_name else { return nil }
    var path = String(cString: name)
    // The host loads the very file it checked through its descriptor, so the image is mapped as
    // /proc/self/fd/N (the descriptor stays open): the file's own name is that link's target.
    if path.hasPrefix("/proc/self/fd/"), let target = linkTarget(path) { path = target }
    return path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init)
}

/// Where the symbolic link `path` points, or nil.
private func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The benchmark's subscriber types, for in-process registration.
public enum BenchSubscriberTypes {
    /// Counts the void event (`didBecomeActive`).
    public static var voidCounter: any InstantiableSubscriber.Type { VoidCounter.self }
    /// Answers `openURL` from the URL's host.
    public static var urlMatcher: any InstantiableSubscriber.Type { URLMatcher.self }
    /// Completes `performFetch` synchronously.
    public static var syncFetcher: any InstantiableSubscriber.Type { SyncFetcher.self }
    /// Completes `performFetch` from DispatchQueue.global.
    public static var asyncFetcher: any InstantiableSubscriber.Type { AsyncFetcher.self }
    /// The name the load benchmark's subscriber has in a copy of the library named `fileName`.
    public static func loadProbeName(fileName: String) -> String { "LoadProbe@" + fileName }
    /// The `@_cdecl` entry symbol's plugin id.
    public static let pluginID = "dev.appdelegatehost.bench-subscribers"
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: BenchSubscriberTypes.pluginID, name: "Bench Subscribers", version: "1.0.0",
        vendor: "AppDelegateHost benchmark",
        subscribers: [VoidCounter.self, URLMatcher.self, SyncFetcher.self, AsyncFetcher.self, LoadProbe.self])
}
