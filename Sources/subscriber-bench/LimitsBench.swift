import BenchLimits
import BenchSubscribers
import Foundation
import SubscriberABI
import SubscriberHost
import SubscriberKit

/// A physical limit measured beside the rows, in the same run: what the machine allows for a path.
enum LimitKind: String, CaseIterable, Sendable {
    /// A plain C loop calling the void entry of subscribers made from libBenchSubscribers.so.
    case cLoopPlugin
    /// The same loop over subscribers made from libBenchSubscribersC.so (a vtable written in C).
    case cLoopC
    /// A Swift loop over class existentials calling the void event's method: the in-process floor.
    case swiftLoop
    /// Reading a script line and writing a JSON line, in C (getline, a byte scan, stdio): the CLI's floor.
    case jsonLine

    var label: String {
        switch self {
        case .cLoopPlugin: "C loop over libBenchSubscribers.so's void entry"
        case .cLoopC: "C loop over libBenchSubscribersC.so's void entry"
        case .swiftLoop: "Swift loop over class existentials (void)"
        case .jsonLine: "a JSON line read and written in C"
        }
    }

    /// What the limit is the floor for.
    var floorFor: String {
        switch self {
        case .cLoopPlugin: "loaded dispatch (Swift plugin)"
        case .cLoopC: "loaded dispatch (C plugin)"
        case .swiftLoop: "in-process dispatch"
        case .jsonLine: "apphost --json, per event"
        }
    }

    /// "call" or "line".
    var unit: String { self == .jsonLine ? "line" : "call" }
}

/// One limit: ns per call (or line) by the wall clock, and instructions when callgrind counted them.
struct LimitFigure: Sendable {
    var kind: LimitKind
    /// Subscribers in the loop (lines per pass for the JSON line).
    var count: Int
    var nanoseconds: Stats
    var instructions: Double?
}

/// The limits: each loop over `count` subscribers (100), made the way the dispatch rows make them.
@MainActor
final class LimitsBench {
    private let image: LoadedPluginImage
    private let cImage: LoadedPluginImage?
    private let sampler: Sampler
    private let sink = HostLogRecorder(retaining: false)
    private let application = Application(name: "Bench", bundleIdentifier: "dev.appdelegatehost.bench", version: "1.0")

    init(pluginPath: String, cPluginPath: String?, sampler: Sampler) throws {
        image = try PluginLoader(allowWritable: true).loadImage(at: pluginPath)
        cImage = try cPluginPath.map { try PluginLoader(allowWritable: true).loadImage(at: $0) }
        self.sampler = sampler
    }

    /// The limits that can run here (the C plugin's loop only when that plugin was found).
    var kinds: [LimitKind] { LimitKind.allCases.filter { $0 != .cLoopC || cImage != nil } }

    /// Subscribers per loop, lines per pass of the JSON line.
    static func count(_ kind: LimitKind) -> Int { kind == .jsonLine ? 1000 : 100 }

    func run(progress: (String) -> Void) async throws -> [LimitFigure] {
        var figures: [LimitFigure] = []
        for kind in kinds {
            let count = Self.count(kind)
            progress("limits: \(kind.label)")
            let (batch, finish) = try loop(kind, count: count)
            defer { finish() }
            let calibrated = await sampler.calibrate(batch)
            var samples: [Double] = []
            for _ in 0..<sampler.repetitions { samples.append(await sampler.time(calibrated, batch) / Double(count)) }
            figures.append(LimitFigure(kind: kind, count: count, nanoseconds: Stats(samples)))
        }
        return figures
    }

    /// Runs `events` passes of `kind` over `count` subscribers, untimed: for callgrind (`--profile-limit`).
    func profile(_ kind: LimitKind, count: Int, events: Int) async throws {
        let (batch, finish) = try loop(kind, count: count)
        defer { finish() }
        await batch(events)
    }

    /// The measured loop (`passes` → work) and what ends it.
    private func loop(_ kind: LimitKind, count: Int) throws -> ((Int) async -> Void, () -> Void) {
        switch kind {
        case .cLoopPlugin, .cLoopC:
            let image = kind == .cLoopPlugin ? self.image : cImage!
            var made: [CSubscriber] = []
            for index in 0..<count {
                let context = sink.context(for: "VoidCounter-\(index)", application: application)
                guard let subscriber = CSubscriber(descriptor: image.descriptor, name: "VoidCounter", context: context) else {
                    made.forEach { $0.destroy() }
                    throw BenchError("\(image.path): create(\"VoidCounter\") returned NULL; expected a subscriber")
                }
                made.append(subscriber)
            }
            let index = LifecycleEvent.didReceiveMemoryWarning.index
            let entries: [UnsafeRawPointer?] = made.map { $0.entries[index] }
            guard entries.allSatisfy({ $0 != nil }) else {
                made.forEach { $0.destroy() }
                throw BenchError("\(image.path): VoidCounter has no didReceiveMemoryWarning entry; expected one")
            }
            let subscribers: [UnsafePointer<adh_subscriber>?] = made.map { $0.me }
            return ({ passes in
                entries.withUnsafeBufferPointer { entries in
                    subscribers.withUnsafeBufferPointer { subscribers in
                        adh_bench_void_loop(entries.baseAddress, subscribers.baseAddress, count, passes)
                    }
                }
            }, { made.forEach { $0.destroy() } })
        case .swiftLoop:
            let type = BenchSubscriberTypes.voidCounter
            let application = self.application
            let subscribers: [any DidReceiveMemoryWarningSubscriber] = (0..<count).map { index in
                type.init(context: sink.context(for: "VoidCounter-\(index)", application: application))
                    as! any DidReceiveMemoryWarningSubscriber
            }
            return ({ passes in
                for _ in 0..<passes {
                    for subscriber in subscribers { subscriber.applicationDidReceiveMemoryWarning(application) }
                }
            }, {})
        case .jsonLine:
            let folder = try PrivateFolder.make(prefix: "subscriber-bench-json")
            let script = folder + "/events.jsonl"
            try CLIScript.write(events: count, to: script)
            // One pass: the whole script read and `count` lines written to /dev/null.
            return ({ passes in
                for _ in 0..<passes { _ = adh_bench_json_lines(script, "/dev/null") }
            }, { try? FileManager.default.removeItem(atPath: folder) })
        }
    }
}
