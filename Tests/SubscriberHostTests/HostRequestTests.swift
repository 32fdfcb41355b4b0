import Foundation
import Synchronization
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// An app's own subscriber that makes requests through the context it keeps: during
/// didBecomeActive (remote notifications) and didEnterBackground (orientations), and from another
/// thread during performFetch, before completing. Each instance is kept by name, so that a test can
/// make requests with its context after the event.
final class Registrar: InstantiableSubscriber, DidBecomeActiveSubscriber, DidEnterBackgroundSubscriber,
    PerformFetchSubscriber {
    static var made: [String: Registrar] = [:]
    let context: SubscriberContext

    init(context: SubscriberContext) {
        self.context = context
        Self.made[context.subscriberName] = self
    }

    func applicationDidBecomeActive(_ application: Application) {
        context.registerForRemoteNotifications()
    }

    func applicationDidEnterBackground(_ application: Application) {
        context.setNeedsUpdateOfSupportedInterfaceOrientations()
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        let context = context
        CompletionsOnTheirWay.run {
            context.registerForRemoteNotifications()
            completionHandler(.newData)
        }
    }
}

/// A sink that keeps the requests it is handed (and ignores log lines), from any thread.
final class RequestSink: SubscriberLogSink {
    private let kept = Mutex<[HostRequest]>([])
    var requests: [HostRequest] { kept.withLock { $0 } }
    func log(subscriber: String, level: LogLevel, message: String) {}
    func logEvent(subscriber: String, name: String, attributes: JSONObject) {}
    func logError(subscriber: String, message: String, attributes: JSONObject) {}
    func request(_ request: SubscriberRequest, from subscriber: String) {
        kept.withLock { $0.append(HostRequest(subscriber: subscriber, request: request)) }
    }
}

/// Requests from subscribers (`SubscriberRequest`): a request made during an event is in that
/// event's outcome, with the subscriber's name, and not left for ``PluginHost/takeRequests()``; one
/// made later, from any thread, is what `takeRequests()` returns (or the next outcome carries). In
/// Swift through the context, in C through `adh.host.requests/1`.
@MainActor
@Suite("Host: subscriber requests, during an event and later", .timeLimit(.minutes(10)))
struct HostRequestTests {
    /// A host of no plugins and the in-process subscribers `inProcess`.
    static func host(_ inProcess: [InProcessSubscriber], options: HostOptions = HostOptions()) throws -> PluginHost {
        let manifest = Manifest(file: "requests.json", directory: "/", app: testApplication)
        return try PluginHost(manifest: manifest, inProcess: inProcess, options: options)
    }

    static func register(_ name: String) -> HostRequest { HostRequest(subscriber: name, request: .registerForRemoteNotifications) }
    static func orientations(_ name: String) -> HostRequest { HostRequest(subscriber: name, request: .updateSupportedInterfaceOrientations) }

    @Test("asked during an event: in that outcome, with the subscriber's name, in call order; nothing left to take")
    func duringAnEvent() async throws {
        let host = try Self.host([InProcessSubscriber(Registrar.self, name: "Pusher"),
                                  InProcessSubscriber(Registrar.self, name: "Second")])
        defer { host.shutDown() }
        #expect(host.dispatchAtOnce(.didFinishLaunching()).requests.isEmpty)
        let active = host.dispatchAtOnce(.didBecomeActive)
        #expect(active.requests == [Self.register("Pusher"), Self.register("Second")])
        #expect(host.takeRequests().isEmpty)

        #expect(await host.dispatch(.willResignActive).requests.isEmpty)
        let background = await host.dispatch(.didEnterBackground)
        #expect(background.requests == [Self.orientations("Pusher"), Self.orientations("Second")])
        #expect(host.takeRequests().isEmpty)
        #expect(host.shutDown().requests.isEmpty)
    }

    @Test("asked from another thread during a completion event, before completing: in that event's outcome")
    func duringACompletion() async throws {
        let host = try Self.host([InProcessSubscriber(Registrar.self, name: "Fetcher")])
        defer { host.shutDown() }
        host.launch()
        _ = host.takeRequests()
        let fetched = await host.dispatch(.performFetch)
        #expect(fetched.result == .newData)
        #expect(fetched.requests == [Self.register("Fetcher")])
        #expect(host.takeRequests().isEmpty)
    }

    @Test("asked later, from another thread: takeRequests returns it, once; the request handler saw it on that thread")
    func later() async throws {
        let seen = Mutex<[(HostRequest, onMain: Bool)]>([])
        let options = HostOptions(requestHandler: { request in seen.withLock { $0.append((request, Thread.isMainThread)) } })
        let host = try Self.host([InProcessSubscriber(Registrar.self, name: "Later")], options: options)
        defer { host.shutDown() }
        host.launch()
        #expect(host.takeRequests().isEmpty)  // the launch's own request went out with its outcome
        let context = try #require(Registrar.made["Later"]).context
        seen.withLock { $0.removeAll() }

        await onAnotherThread {
            context.registerForRemoteNotifications()
            context.setNeedsUpdateOfSupportedInterfaceOrientations()
        }
        #expect(host.takeRequests() == [Self.register("Later"), Self.orientations("Later")])
        #expect(host.takeRequests().isEmpty)
        #expect(seen.withLock { $0.map(\.0) } == [Self.register("Later"), Self.orientations("Later")])
        #expect(seen.withLock { $0.map(\.onMain) } == [false, false])
        // Taken: the next outcome does not carry them again.
        #expect(host.dispatchAtOnce(.didReceiveMemoryWarning).requests.isEmpty)
    }

    @Test("asked later and not taken: the next outcome carries it; after the last event, shutDown hands it out")
    func laterNotTaken() async throws {
        let host = try Self.host([InProcessSubscriber(Registrar.self, name: "Untaken")])
        defer { host.shutDown() }
        host.launch()
        let context = try #require(Registrar.made["Untaken"]).context
        await onAnotherThread { context.registerForRemoteNotifications() }
        #expect(host.dispatchAtOnce(.didReceiveMemoryWarning).requests == [Self.register("Untaken")])
        #expect(host.takeRequests().isEmpty)

        await onAnotherThread { context.setNeedsUpdateOfSupportedInterfaceOrientations() }
        #expect(host.shutDown().requests == [Self.orientations("Untaken")])
    }

    @Test("a C plugin's requests (adh.host.requests/1): during an event in its outcome, from its own thread later through takeRequests")
    func throughC() async throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let include = IntegrationTests.packageRoot + "/Sources/SubscriberABI/include"
        let source = try String(contentsOfFile: IntegrationTests.packageRoot + "/Tests/Fixtures/RequestAsker/request_asker.c",
                                encoding: .utf8)
        let library = try compileSharedLibrary(source, named: "libRequestAsker.so", in: folder,
                                               flags: ["-pthread", "-I", include])
        let manifest = try folder.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
             "plugins": [{"path": "\(library)"}]}
            """)
        let host = try PluginHost(manifestAt: manifest, options: HostOptions(allowWritable: true))
        defer { host.shutDown() }
        #expect(host.dispatchAtOnce(.didFinishLaunching()).requests.isEmpty)
        let active = host.dispatchAtOnce(.didBecomeActive)
        #expect(active.requests == [Self.register("RequestAsker"), Self.orientations("RequestAsker")])
        #expect(host.takeRequests().isEmpty)

        host.dispatchAtOnce(.willResignActive)
        let background = host.dispatchAtOnce(.didEnterBackground)
        #expect(background.requests.isEmpty)  // the plugin's thread asks once destroy wakes it
        // Removed outside any event: destroyed at once, it wakes its thread, which asks, and joins it.
        try host.remove(named: "RequestAsker")
        #expect(host.takeRequests() == [Self.register("RequestAsker")])
    }

    @Test("a Swift subscriber exported through C: its context's requests cross adh.host.requests/1, named as the host knows it")
    func swiftThroughC() async throws {
        let descriptor = SubscriberPlugin.export(id: "com.example.request-tests", name: "Request tests", version: "1.0",
                                                 subscribers: [Registrar.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
        let sink = RequestSink()
        let state = ApplicationStateCell()
        let context = sink.context(for: "BridgedPusher", application: testApplication)
        let adapter = try CSubscriber(creating: Registrar.subscriberName, from: descriptor, context: context, state: state)
        defer { adapter.destroy() }
        // The plugin side made its own instance, with the context the SDK gives it.
        let pluginSide = try #require(Registrar.made[Registrar.subscriberName])
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter, name: "BridgedPusher")],
                                             configuration: DispatchConfiguration(application: testApplication), state: state)
        dispatcher.launch()
        #expect(sink.requests == [Self.register("BridgedPusher")])
        _ = await dispatcher.dispatch(.performFetch)
        #expect(sink.requests == [Self.register("BridgedPusher"), Self.register("BridgedPusher")])
        // Later, from another thread, through the plugin side's own context.
        let pluginContext = pluginSide.context
        await onAnotherThread { pluginContext.setNeedsUpdateOfSupportedInterfaceOrientations() }
        #expect(sink.requests.last == Self.orientations("BridgedPusher"))
        #expect(sink.requests.count == 3)
    }
}
