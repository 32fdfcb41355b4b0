import SubscriberHost

/// `load.swift-version`: a Swift plugin was built by the host's Swift major.minor; a C plugin says
/// "" (loader check 7). Two copies of the Swift runtime's expectations must agree.
struct SwiftVersionCheck: ConformanceCheck {
    let id = "load.swift-version"
    let summary = "a Swift plugin was built by the host's Swift compiler (major.minor)"
    let expectation = "swift_version \"\" (a C plugin) or \"\(HostSwiftVersion.current)\" (the host's compiler)"
    let requires = ["load.abi-version"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        LoadStage.verdict(environment, covers: 7...7, expected: expectation) {
            let version: String?
            if case .success(let image) = environment.load() {
                version = image.swiftVersion
            } else {
                version = DescriptorPeek(path: environment.pluginPath)?.swiftVersion
            }
            switch version {
            case "": return "a C plugin (swift_version \"\")"
            case let version?: return "built by Swift \(version), as the host (\(HostSwiftVersion.current))"
            case nil: return "accepted by the loader"
            }
        }
    }
}
