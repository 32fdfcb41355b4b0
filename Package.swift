// swift-tools-version:6.0
//
// AppDelegateHost — app-lifecycle subscribers shipped as shared libraries.
//
// The layout is the architecture:
//   SubscriberABI          the C header: the binary contract. Depends on nothing.
//   SubscriberKit          what plugin authors import. Imports only SubscriberABI.
//   SubscriberHost         manifest, loader, dispatcher, reconcilers. Never imports a plugin.
//   SubscriberConformance  the plugin conformance kit, over SubscriberHost.
//   AppHostCLI / apphost   the command line, thin over the libraries above.
//   Plugins/               example plugins, each a dynamic library product.
//
// No package dependencies: the toolchain only.
import PackageDescription

/// Example plugins written in Swift against SubscriberKit: Plugins/<Name>/, product lib<Name>.so.
let swiftPlugins: [String] = []

/// Plugins written in plain C against the header alone: Plugins/<Name>/, product lib<Name>.so.
let cPlugins: [String] = []

let package = Package(
    name: "AppDelegateHost",
    products: [
        .library(name: "SubscriberABI", targets: ["SubscriberABI"]),
        .library(name: "SubscriberKit", targets: ["SubscriberKit"]),
        .library(name: "SubscriberHost", targets: ["SubscriberHost"]),
    ]
    + (swiftPlugins + cPlugins).map { .library(name: $0, type: .dynamic, targets: [$0]) },
    targets: [
        .target(name: "SubscriberABI"),
        .target(name: "SubscriberKit", dependencies: ["SubscriberABI"]),
        .target(name: "SubscriberHost", dependencies: ["SubscriberKit", "SubscriberABI"]),
        .target(name: "AppHostCLI", dependencies: ["SubscriberHost", "SubscriberKit"]),

        .testTarget(name: "SubscriberKitTests", dependencies: ["SubscriberKit"]),
        .testTarget(name: "SubscriberHostTests", dependencies: ["SubscriberHost", "SubscriberKit", "SubscriberABI"]),
        .testTarget(name: "AppHostCLITests", dependencies: ["AppHostCLI"]),
    ]
    + swiftPlugins.map { .target(name: $0, dependencies: ["SubscriberKit"], path: "Plugins/\($0)") }
    + cPlugins.map { .target(name: $0, dependencies: ["SubscriberABI"], path: "Plugins/\($0)") }
)
