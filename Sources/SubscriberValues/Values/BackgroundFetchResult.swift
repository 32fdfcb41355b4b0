/// UIBackgroundFetchResult: what a background fetch or a remote notification's fetch found.
/// Raw values are UIKit's and the C header's (`ADH_FETCH_*`).
public enum BackgroundFetchResult: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// New data was fetched.
    case newData = 0
    /// There was nothing new.
    case noData = 1
    /// The fetch failed.
    case failed = 2

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

    public var description: String { name }
}
