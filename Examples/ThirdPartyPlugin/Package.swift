// swift-tools-version:6.0
// A plugin package outside AppDelegateHost: one Swift subscriber plugin, built as a shared library
// and tested with AppDelegateHost's conformance kit.
import Foundation
import PackageDescription

/// AppDelegateHost, by path: this example sits in Examples/ThirdPartyPlugin of its repository.
let appDelegateHostPath = "../.."

/// SwiftPM names a path dependency after its folder, not after the `name:` in its Package.swift:
/// `.package(path: "../AppDelegateHost")` is the package "AppDelegateHost". A clone of this repository
/// can sit in a folder of any name, so the example reads that name from where it is. In your own
/// package, write the folder's name instead: `package: "AppDelegateHost"`.
let appDelegateHost = URL(fileURLWithPath: Context.packageDirectory)
    .appendingPathComponent(appDelegateHostPath).standardized.lastPathComponent

let package = Package(
    name: "ThirdPartyPlugin",
    products: [
        // The plugin: libAcmeWelcome.so, which a manifest lists as {"library": "AcmeWelcome"}.
        .library(name: "AcmeWelcome", type: .dynamic, targets: ["AcmeWelcome"]),
        // The other side: an app that embeds the host and loads the plugin through manifest.json.
        .executable(name: "AcmeNewsApp", targets: ["AcmeNewsApp"]),
    ],
    dependencies: [
        .package(path: appDelegateHostPath),
    ],
    targets: [
        .target(name: "AcmeWelcome", dependencies: [
            .product(name: "SubscriberKit", package: appDelegateHost),
        ]),
        .executableTarget(name: "AcmeNewsApp", dependencies: [
            .product(name: "SubscriberHost", package: appDelegateHost),
            .product(name: "SubscriberKit", package: appDelegateHost),
        ]),
        .testTarget(name: "AcmeWelcomeTests", dependencies: [
            .product(name: "SubscriberConformance", package: appDelegateHost),
        ]),
    ]
)
