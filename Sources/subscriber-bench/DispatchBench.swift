import Foundation
import BenchSubscribers
import SubscriberHost
import SubscriberKit

/// One event the dispatch benchmark sends, and the subscriber type that answers it.
enum DispatchScenario: String, CaseIterable, Sendable {
    case voidEvent, openURL, fetchSync, fetchAsync, willPresent, unimplemented, sceneURL

    /// The row label.
    var label: String {
        switch self {
        case .voidEvent: "void event (didReceiveMemoryWarning)"
        case .openURL: "openURL (with options)"
        case .fetchSync: "performFetch, sync completion"
        case .fetchAsync: "performFetch, other-thread completion"
        case .willPresent: "notifications.willPresent, sync completion"
        case .unimplemented: "an event none implements"
        case .sceneURL: "scene.openURLContexts (one URL)"
        }
    }

    /// The subscriber type, in-process.
    @MainActor var type: any InstantiableSubscriber.Type {
        switch self {
        case .voidEvent: BenchSubscriberTypes.voidCounter
        case .openURL: BenchSubscriberTypes.urlMatcher
        case .fetchSync: BenchSubscriberTypes.syncFetcher
        case .fetchAsync: BenchSubscriberTypes.asyncFetcher
        case .willPresent: BenchSubscriberTypes.notificationPresenter
        // VoidCounter implements didReceiveMemoryWarning only; the scenario sends significantTimeChange.
        case .unimplemented: BenchSubscriberTypes.voidCounter
        case .sceneURL: BenchSubscriberTypes.sceneURLMatcher
        }
    }
}

/// One cell of the dispatch table: a scenario at one subscriber count, both ways, ns per event.
struct DispatchFigure: Sendable {
    var scenario: DispatchScenario
    var subscribers: Int
    var inProcess: Stats
    var loaded: Stats
    /// loaded / in-process, per repetition.
    var ratio: Stats
}

/// The dispatch benchmark: the same subscriber types registered in-process and made through the C
/// ABI from libBenchSubscribers.so, each behind its own ``LifecycleDispatcher``.
@MainActor
final class DispatchBench {
    private let image: LoadedPluginImage
    private let sampler: Sampler
    /// Forwards nothing and keeps nothing: the subscribers do not log, and must not pile up records.
    private let sink = HostLogRecorder(retaining: false)
    private let application = Application(name: "Bench", bundleIdentifier: "dev.appdelegatehost.bench", version: "1.0")
    /// Distinct URLs, one per event in turn, so that every event encodes (and the plugin decodes) a
    /// new payload, as real events do; half of them match URLMatcher's host.
    private let urls: [URL] = (0..<64).map {
        URL(string: $0 % 2 == 0 ? "https://bench.example.com/article/\($0)" : "https://other.example.org/item/\($0)")!
    }
    private let urlOptions = OpenURLOptions(sourceApplication: "com.example.mail",
                                            annotation: ["campaign": "spring", "position": 3], openInPlace: false)
    private var nextURL = 0
    /// The notification every willPresent event presents.
    private let notification = UserNotification(identifier: "bench-1", userInfo: ["articles": [1, 2]],
                                                categoryIdentifier: "article")

    /// A benchmark over the plugin at `pluginPath`.
    init(pluginPath: String, sampler: Sampler) throws {
        image = try PluginLoader(allowWritable: true).loadImage(at: pluginPath)
        self.sampler = sampler
    }

    /// Every scenario at every count in `counts`; `progress` hears each cell as it starts.
    func run(counts: [Int], progress: (String) -> Void) async throws -> [DispatchFigure] {
        var figures: [DispatchFigure] = []
        for scenario in DispatchScenario.allCases {
            for count in counts {
                progress("dispatch: \(scenario.label), \(count) subscribers")
                figures.append(try await measure(scenario, subscribers: count))
            }
        }
        return figures
    }

    private func measure(_ scenario: DispatchScenario, subscribers count: Int) async throws -> DispatchFigure {
        let inProcess = launched(LifecycleDispatcher(subscribers: inProcessRegistrations(scenario, count),
                                                     configuration: DispatchConfiguration(application: application)), scenario)
        let (registrations, made) = try loadedRegistrations(scenario, count)
        defer { made.forEach { $0.destroy() } }
        let loaded = launched(LifecycleDispatcher(subscribers: registrations,
                                                  configuration: DispatchConfiguration(application: application)), scenario)
        try await check(scenario, inProcess: inProcess, loaded: loaded, count: count)
        let (direct, bridged) = await sampler.comparePair(batch(scenario, inProcess), batch(scenario, loaded))
        return DispatchFigure(scenario: scenario, subscribers: count, inProcess: direct, loaded: bridged,
                              ratio: ratio(bridged, direct))
    }

    /// Sends `events` events of `scenario` to `count` subscribers one way, untimed: the loop to run
    /// under `valgrind --tool=callgrind` (`--profile`).
    func profile(_ scenario: DispatchScenario, subscribers count: Int, events: Int, loaded: Bool) async throws {
        let registrations = loaded ? try loadedRegistrations(scenario, count) : (inProcessRegistrations(scenario, count), [])
        defer { registrations.1.forEach { $0.destroy() } }
        let dispatcher = launched(LifecycleDispatcher(subscribers: registrations.0,
                                                      configuration: DispatchConfiguration(application: application)), scenario)
        await batch(scenario, dispatcher)(events)
    }

    private func inProcessRegistrations(_ scenario: DispatchScenario, _ count: Int) -> [SubscriberRegistration] {
        (0..<count).map {
            SubscriberRegistration(scenario.type, name: "\(scenario.type.subscriberName)-\($0)",
                                   application: application, sink: sink)
        }
    }

    private func loadedRegistrations(_ scenario: DispatchScenario, _ count: Int) throws
        -> ([SubscriberRegistration], [CSubscriber])
    {
        let typeName = scenario.type.subscriberName
        var made: [CSubscriber] = []
        for index in 0..<count {
            let context = sink.context(for: "\(typeName)-\(index)", application: application)
            guard let subscriber = CSubscriber(descriptor: image.descriptor, name: typeName, context: context) else {
                made.forEach { $0.destroy() }
                throw BenchError("\(image.path): create(\"\(typeName)\") returned NULL; expected a subscriber")
            }
            made.append(subscriber)
        }
        let registrations = made.enumerated().map { index, subscriber in
            SubscriberRegistration(subscriber, name: "\(typeName)-\(index)")
        }
        return (registrations, made)
    }

    /// `dispatcher` once the app launched and became active: the measured events are ones UIKit
    /// delivers to a running app, any number of times. A scene scenario's app launches the scene way:
    /// its scene `main` connects and becomes active.
    private func launched(_ dispatcher: LifecycleDispatcher, _ scenario: DispatchScenario) -> LifecycleDispatcher {
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        guard scenario == .sceneURL else {
            dispatcher.dispatchAtOnce(.didBecomeActive)
            return dispatcher
        }
        dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main"))
        return dispatcher
    }

    /// Sends `count` events of `scenario` through `dispatcher`.
    private func batch(_ scenario: DispatchScenario, _ dispatcher: LifecycleDispatcher) -> (Int) async -> Void {
        switch scenario {
        case .voidEvent:
            return { count in for _ in 0..<count { _ = dispatcher.dispatchAtOnce(.didReceiveMemoryWarning) } }
        case .openURL:
            return { [self] count in
                for _ in 0..<count { _ = dispatcher.dispatchAtOnce(.openURL(url: takeURL(), options: urlOptions)) }
            }
        case .fetchSync, .fetchAsync:
            return { count in for _ in 0..<count { _ = await dispatcher.dispatch(.performFetch) } }
        case .willPresent:
            return { [notification] count in
                for _ in 0..<count { _ = await dispatcher.dispatch(.willPresentNotification(notification)) }
            }
        case .unimplemented:
            return { count in for _ in 0..<count { _ = dispatcher.dispatchAtOnce(.significantTimeChange) } }
        case .sceneURL:
            return { [self] count in
                for _ in 0..<count {
                    _ = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: takeURL(), options: urlOptions)]))
                }
            }
        }
    }

    private func takeURL() -> URL {
        defer { nextURL = (nextURL + 1) % urls.count }
        return urls[nextURL]
    }

    /// Both dispatchers answer alike, with one answer row per subscriber: the benchmark measures
    /// working paths, not failures.
    private func check(_ scenario: DispatchScenario, inProcess: LifecycleDispatcher, loaded: LifecycleDispatcher,
                       count: Int) async throws {
        let call: AnyEventCall = switch scenario {
        case .voidEvent: NotificationCall.didReceiveMemoryWarning.erased
        case .openURL: EventCall.openURL(url: urls[nextURL], options: urlOptions).erased
        case .fetchSync, .fetchAsync: EventCall.performFetch.erased
        case .willPresent: EventCall.willPresentNotification(notification).erased
        case .unimplemented: NotificationCall.significantTimeChange.erased
        case .sceneURL: EventCall.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: urls[nextURL], options: urlOptions)]).erased
        }
        let rows = scenario == .unimplemented ? 0 : count
        var results: [(String, Int)] = []
        for dispatcher in [inProcess, loaded] {
            let outcome = await dispatcher.dispatch(call)
            results.append(("\(outcome.result)", outcome.answers.count))
        }
        guard results[0] == results[1], results[0].1 == rows else {
            throw BenchError("\(scenario.label) with \(count) subscribers: in-process answered \(results[0]), "
                             + "loaded answered \(results[1]); expected equal results and \(rows) answer rows each")
        }
    }
}
/// A benchmark failure or a bad argument: one line naming what went wrong.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
