import SubscriberKit
import SubscriberEventModel

/// `load.abi-version`: the descriptor's ABI major is the host's, and its `struct_size` covers the
/// 1.0 descriptor (loader check 6).
struct ABIVersionCheck: ConformanceCheck {
    let id = "load.abi-version"
    let summary = "ABI major matches the host's; descriptor struct_size covers ABI 1.0"
    let expectation = "ABI major \(ABI.major) (any minor) and a descriptor struct_size of at least the ABI 1.0 size"
    let requires = ["load.entry-symbol"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        LoadStage.verdict(environment, covers: 6...6, expected: expectation) {
            let host = "host speaks \(ABI.major).\(ABI.minor)"
            if case .success(let image) = environment.load() {
                return "ABI \(image.abiMajor).\(image.abiMinor), struct_size \(image.structSize); \(host)"
            }
            guard let peek = DescriptorPeek(path: environment.pluginPath) else { return "accepted by the loader; \(host)" }
            return "ABI \(peek.abiMajor).\(peek.abiMinor), struct_size \(peek.structSize); \(host)"
        }
    }
}
