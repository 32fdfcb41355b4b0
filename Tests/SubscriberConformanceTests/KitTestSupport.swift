import Foundation
import Testing
import BuiltProducts
import SubscriberConformance

/// The built products, beside the test binary (``BuiltProducts``); a missing one fails the test.
enum Built {
    /// The `apphost` executable, for the command's own tests.
    static var apphost: String { BuiltProducts.file("apphost") }

    /// `lib<name>.so`.
    static func plugin(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        BuiltProducts.library(name, sourceLocation: sourceLocation)
    }
}

/// The example plugins of Plugins/, all of which must pass.
let examplePlugins = ["AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter", "NotificationFetcher",
                      "OrientationLock", "ExtensionGuard", "QuietHours"]

/// The example plugins written in C.
let cExamplePlugins: Set<String> = ["ExtensionGuard", "QuietHours"]

/// What a C plugin skips: the checks that read Swift symbols (it has none).
let cPluginSkips = ["events.shaped-methods"]

/// Options for the tests: a fixed seed (reproducible fuzzing). The checks run in this test binary.
func kitOptions(_ change: (inout ConformanceOptions) -> Void = { _ in }) -> ConformanceOptions {
    var options = ConformanceOptions()
    options.seed = 20_240_601
    change(&options)
    return options
}

/// A fresh temporary folder (mode 0755), removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                            attributes: [.posixPermissions: 0o755])
    return url
}
