// swift-tools-version:6.0
//
// AppDelegateHost — app-lifecycle subscribers shipped as shared libraries.
//
// The layout is the architecture:
//   SubscriberABI          the C header: the binary contract. Depends on nothing.
//   SubscriberValues       the values subscribers take and return (UIKit's), JSONValue, the context and
//                          completion handlers. Re-exported by SubscriberKit and SubscriberEventModel.
//   SubscriberEventModel   the event model both sides run: the event table, its shapes, reconcilers,
//                          LifecycleEvent, EventCall, DispatchReport, the ABI readers, the SDK's C glue.
//                          A plugin links it; authors never import it (the host re-exports it).
//   SubscriberKit          what plugin authors import: the event protocols, the base class, the export.
//                          With the two above, all a Swift plugin links: as libSubscriberKit.so, one
//                          shared library the host provides, for plugins of other packages.
//   SubscriberDelivery     the host's delivery engine: each row's call path, responders, completion
//                          collection and tokens, in-flight events, the host clock. Over the event
//                          model; only the host links it, never a plugin.
//   SubscriberHost         manifest, loader, dispatcher. Never imports a plugin.
//   SubscriberConformance  the plugin conformance kit, over SubscriberHost.
//   AppHostCLI / apphost   the command line, thin over the libraries above.
//   Plugins/               example plugins, each a dynamic library product.
//
// No package dependencies: the toolchain only.
import PackageDescription

/// Example plugins written in Swift against SubscriberKit: Plugins/<Name>/, product lib<Name>.so.
let swiftPlugins: [String] = [
    "AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter", "NotificationFetcher", "OrientationLock",
    "Greeter",  // the README's "write your first plugin" example, verbatim
    "SceneGreeter",  // the scene section's example (docs/writing-plugins-swift.md), verbatim
]

/// Plugins written in plain C against the header alone: Plugins/<Name>/, product lib<Name>.so.
let cPlugins: [String] = [
    "ExtensionGuard",
    "GreeterC",  // the README's C example, verbatim
    "QuietHours",  // the notification-center extension (ABI 1.1)
    "BenchSubscribersC",  // the benchmark's C subscriber: the host's own overhead per C subscriber
    "SceneGreeterC",  // the scene extension (docs/writing-plugins-c.md), verbatim
    "LinkRewriterC",  // the URL hook extension (docs/writing-plugins-c.md), verbatim
]

/// Deliberately broken C plugins, each failing exactly one load-time or conformance check (listed in
/// Plugins/Broken/README.md): Plugins/Broken/<Name>/, product lib<Name>.so.
let brokenPlugins: [String] = [
    // Load-time checks (docs/manifest.md).
    "BrokenUnresolved", "BrokenNoEntry", "BrokenABIMajor", "BrokenStructSize", "BrokenDescriptor", "BrokenUTF8Name",
    "BrokenDuplicateNames", "BrokenSwiftVersion", "BrokenEntryData",
    // Conformance-kit checks (docs/conformance-kit.md).
    "SlowScan", "NoDestroy", "CrashOnEvent", "HangOnEvent", "NeverCompletes", "CompletesTwice", "LeakyCreate",
    "Nondeterministic", "SlowHandler", "UnknownNameNotNull", "FuzzCrash", "CompletesLate",
    // Conformance-kit fixtures: a plugin that needs an option, and hostile ones the kit must survive.
    "RequiresOption", "ForgedVerdict", "StdoutNoNewline", "StdoutFlood", "HugeDescriptorId", "ForkingPlugin",
    "ClosesDescriptors",
    // Host robustness: hostile strings and tokens, log lines at destroy.
    "HostileLengths", "LogsAtDestroy", "ForgesFromThread", "DiesOnEvent", "HoldsDescriptors",
    "ForgesChannelVerdict", "ForgesWorkerPid", "ForgesProtocolVersion", "ZeroStructSize", "RespondsToNothing",
    // Host robustness: a plugin thread asleep during output, a plugin that redirects stdout and stderr,
    // one that closes apphost's copies of them.
    "SleepsOnThread", "RedirectsStdout", "ClosesStdioCopies",
    // A subscriber whose get_extension hands out a vtable the host must not read (misaligned, unreadable).
    "BadExtensionVTable",
    // A URL hook (adh.url-hook/1) whose decisions are bad answers the host must keep and report.
    "BadURLHookAnswers",
    // Not a defect: valid behaviour the host and the kit must accept (the optional restoration handler, a
    // handler that declines without an option).
    "NeverRestores", "DeclinesByDefault",
    // Not a defect: 4,096 subscribers in one plugin, for the loader's linear-time tests.
    "ManySubscribers",
    // Not a defect: two subscribers that log the options they are handed (options per subscriber).
    "OptionsEcho",
    // Not a defect: two C scene subscribers that log the connection options they are handed.
    "ConnectionEcho",
    // Not a defect: many log lines in one event, for logging that stays linear in an event's lines.
    "LogsManyLines",
    // apphost list's scan cache: an entry that crashes, a create that hangs, an entry that counts the
    // processes that ran it.
    "CrashesInEntry", "HangsInCreate", "CountsScans",
    // Process isolation: a crash in create, a crash with a completion owed, garbage on the channel, a
    // memory limit reached, lines on standard output and error.
    "IsolationFaults",
    // The live host's reload: one plugin built with two answers (openURL true, then false); a crash while up.
    "ReloadAnswerA", "ReloadAnswerB",
    // Process isolation's fidelity: reads the host's state during a call, answers an explicit NO to
    // continueUserActivity.
    "ReadsHostState",
]

/// Deliberately broken Swift plugins, over SubscriberKit, for the conformance-kit checks that read a
/// Swift plugin's symbols (listed in Plugins/Broken/README.md): Plugins/Broken/<Name>/, product lib<Name>.so.
let swiftFixturePlugins: [String] = [
    "NearMissSubscriber",  // event-shaped methods the SDK never calls (events.shaped-methods)
    "RunLoopTimer",  // a Timer on RunLoop.main, fired between events in process and isolated
]

/// C plugins built against a frozen copy of an older ABI's headers, never against SubscriberABI, so the
/// host is tested against what older plugins really are (Plugins/Fixtures/README.md):
/// Plugins/Fixtures/<Name>/, product lib<Name>.so, headers from Plugins/Fixtures/<ABI-x.y>/include.
let frozenABIPlugins: [(name: String, headers: String)] = [
    ("LegacyABI10", "ABI-1.0"),
]

/// Every C plugin is C99 and must compile clean under -Wall -Wextra. Symbols are hidden unless marked
/// otherwise, so a plugin exports its entry symbol and nothing else. Unsafe flags are fine here: no
/// other package ever depends on a plugin product.
let cPluginSettings: [CSetting] = [.unsafeFlags(["-std=c99", "-Wall", "-Wextra", "-fvisibility=hidden"])]

/// A C plugin target at `path`, over the header and `extraDependencies`. A plugin publishes no headers
/// of its own (its only interface is the entry symbol), and SwiftPM refuses a custom path without a
/// public-headers folder, hence ".".
func cPluginTarget(_ name: String, path: String, extraDependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: ["SubscriberABI"] + extraDependencies, path: path, publicHeadersPath: ".",
            cSettings: cPluginSettings)
}

let package = Package(
    name: "AppDelegateHost",
    products: [
        .library(name: "SubscriberABI", targets: ["SubscriberABI"]),
        // The plugin SDK, one shared library (libSubscriberKit.so) that plugins built in other packages
        // link and a host provides beside its executable: one copy of the SDK's code for every plugin
        // (docs/architecture.md, "What a plugin image holds"). This package's own plugins carry its objects.
        .library(name: "SubscriberKit", type: .dynamic, targets: ["SubscriberKit"]),
        .library(name: "SubscriberHost", targets: ["SubscriberHost"]),
        .library(name: "SubscriberConformance", targets: ["SubscriberConformance"]),
        .executable(name: "apphost", targets: ["apphost"]),
        .executable(name: "subscriber-bench", targets: ["subscriber-bench"]),
        .library(name: "BenchSubscribers", type: .dynamic, targets: ["BenchSubscribers"]),
    ]
    + (swiftPlugins + cPlugins + brokenPlugins + swiftFixturePlugins + frozenABIPlugins.map(\.name)).map { .library(name: $0, type: .dynamic, targets: [$0]) },
    targets: [
        .target(name: "SubscriberABI"),
        .target(name: "SubscriberValues", dependencies: ["SubscriberABI"]),
        .target(name: "SubscriberEventModel", dependencies: ["SubscriberValues", "SubscriberABI"]),
        .target(name: "SubscriberKit", dependencies: ["SubscriberEventModel", "SubscriberValues", "SubscriberABI"]),
        .target(name: "SubscriberDelivery", dependencies: ["SubscriberKit", "SubscriberEventModel", "SubscriberValues", "SubscriberABI"]),
        .target(name: "SubscriberHost", dependencies: ["SubscriberDelivery", "SubscriberKit", "SubscriberEventModel", "SubscriberABI", "HostDynamicLinker", "ChildProcess"]),
        // dladdr1 (the entry symbol's ELF type), which Swift's Glibc module hides behind _GNU_SOURCE.
        .target(name: "HostDynamicLinker"),
        // Child processes (spawn, signed channel, reaper) for the kit and process isolation; its C half
        // turns an executable that links it into a child before `main` (a constructor).
        .target(name: "ChildProcessEntry"),
        .target(name: "ChildProcess", dependencies: ["ChildProcessEntry"]),
        .target(name: "SubscriberConformance",
                dependencies: ["SubscriberHost", "SubscriberKit", "SubscriberEventModel", "SubscriberABI", "ChildProcess"]),
        .target(name: "AppHostCLI", dependencies: ["SubscriberHost", "SubscriberConformance", "SubscriberKit", "SubscriberEventModel", "ChildProcess"]),
        .executableTarget(name: "apphost", dependencies: ["AppHostCLI"]),

        // The benchmark (docs/performance.md): the same subscriber types in-process and loaded from
        // libBenchSubscribers.so.
        // -D_GNU_SOURCE: Glibc declares _dl_find_object, which names the load benchmark's probe after its file.
        .target(name: "BenchSubscribers", dependencies: ["SubscriberKit"], path: "Plugins/BenchSubscribers",
                swiftSettings: [.unsafeFlags(["-Xcc", "-D_GNU_SOURCE"])]),
        .executableTarget(name: "subscriber-bench",
                          dependencies: ["SubscriberHost", "BenchSubscribers", "AppHostCLI", "BenchLimits"]),
        // The floors the benchmark measures beside its rows: a C loop over subscribers' entries, a JSON
        // line read and written in C.
        .target(name: "BenchLimits", dependencies: ["SubscriberABI"], cSettings: cPluginSettings),

        // docs/embedding.md's example: an app that embeds the host (run by EmbeddingExampleTests).
        .target(name: "EmbeddingExample", dependencies: ["SubscriberHost", "SubscriberKit"], path: "Examples/Embedding"),

        // The scaffolding the broken plugins share (adh_fixture.h, header-only), so each shows its one defect.
        .target(name: "FixtureSupport", dependencies: ["SubscriberABI"], path: "Plugins/Broken/FixtureSupport",
                cSettings: cPluginSettings),

        // For the test targets only: where the products under test are (beside the test binary).
        .target(name: "BuiltProducts", path: "Tests/BuiltProducts"),
        // For the test targets only: a plugin written from the event table and compiled at test time.
        .target(name: "GeneratedPlugin", dependencies: ["SubscriberKit", "BuiltProducts"], path: "Tests/GeneratedPlugin"),
        .testTarget(name: "SubscriberKitTests", dependencies: ["SubscriberKit", "SubscriberEventModel", "SubscriberValues", "SubscriberDelivery"]),
        .testTarget(name: "SubscriberHostTests",
                    dependencies: ["SubscriberHost", "SubscriberDelivery", "SubscriberKit", "SubscriberEventModel", "SubscriberValues", "SubscriberABI", "EmbeddingExample", "BuiltProducts", "ChildProcess",
                                   "GeneratedPlugin"]),
        .testTarget(name: "AppHostCLITests", dependencies: ["AppHostCLI", "SubscriberHost", "SubscriberDelivery", "SubscriberKit", "SubscriberEventModel", "SubscriberValues", "BuiltProducts", "GeneratedPlugin"]),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),
        .testTarget(name: "SubscriberConformanceTests",
                    dependencies: ["SubscriberConformance", "AppHostCLI", "BuiltProducts", "GeneratedPlugin"]),
    ]
    + swiftPlugins.map { .target(name: $0, dependencies: ["SubscriberKit"], path: "Plugins/\($0)") }
    + cPlugins.map { cPluginTarget($0, path: "Plugins/\($0)") }
    + brokenPlugins.map { cPluginTarget($0, path: "Plugins/Broken/\($0)", extraDependencies: ["FixtureSupport"]) }
    + swiftFixturePlugins.map { .target(name: $0, dependencies: ["SubscriberKit"], path: "Plugins/Broken/\($0)") }
    + frozenABIPlugins.map { plugin in
        .target(name: plugin.name, path: "Plugins/Fixtures/\(plugin.name)", publicHeadersPath: ".",
                cSettings: cPluginSettings + [.headerSearchPath("../\(plugin.headers)/include")])
    }
)
