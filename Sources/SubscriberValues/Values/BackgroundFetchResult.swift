/// UIBackgroundFetchResult: what a background fetch or a remote notification's fetch found.
/// Raw values are UIKit's and the C header's (`ADH_FETCH_*`).
public enum BackgroundFetchResult: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// New data was fetched.
    case newData
    /// There was nothing new.
    case noData
    /// The fetch failed.
    case failed

    /// The name used in manifests, event scripts and output: "newData", "noData", "failed".
    package var name: String {
        switch self {
        case .newData: "newData"
        case .noData: "noData"
        case .failed: "failed"
        }
    }

    /// The result named `name` ("newData", "noData", "failed"), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// UIKit's value, and the C header's (`ADH_FETCH_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .newData: 0
        case .noData: 1
        case .failed: 2
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case 0: self = .newData
        case 1: self = .noData
        case 2: self = .failed
        default: return nil
        }
    }

    public var description: String { name }
}
