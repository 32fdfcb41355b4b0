/// Why a ``PluginHost`` could not start. Nothing was dispatched: the host is complete or absent.
/// It prints as one line naming the file (or the in-process subscriber), what was expected and what
/// was found.
public struct HostError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the loader's and the dispatcher's own errors (package API: `apphost`
    /// cuts long values in them before printing).
    package enum Reason: Sendable {
        /// The manifest is missing, not JSON, or has a bad shape.
        case manifest(ManifestError)
        /// A required plugin failed one of the ten load-time checks, or could not make a subscriber
        /// it declares (``PluginLoadError/createFailed(path:name:reason:)``).
        case load(PluginSetError)
        /// A manifest setting the dispatcher cannot honour.
        case configuration(file: String, DispatchConfigurationError)
        /// An in-process subscriber (at `index` of the list given) has a name another subscriber already has.
        case duplicateInProcessName(name: String, index: Int)
        /// An in-process subscriber (at `index` of the list given) has a name a manifest could not
        /// give (empty, control characters, too long).
        case invalidInProcessName(index: Int, expected: String, found: String)
        /// An in-process subscriber's (at `index` of the list given) `after`/`before` constraint
        /// cannot be met: `key` says which (`after[0]`, `before`): a name no subscriber has, a
        /// cycle, a list too long.
        case invalidInProcessOrder(index: Int, key: String, expected: String, found: String)
    }

    /// What went wrong.
    package let reason: Reason

    package init(_ reason: Reason) { self.reason = reason }

    /// The manifest's own error, when the manifest (its file, its JSON, a key's value) was what was
    /// wrong; nil when a plugin or an in-process subscriber was.
    public var manifestError: ManifestError? {
        if case .manifest(let error) = reason { error } else { nil }
    }

    public var description: String {
        switch reason {
        case .manifest(let error): error.description
        case .load(let error): error.description
        case .configuration(let file, let error): "\(file): \(error)"
        case .duplicateInProcessName(let name, let index):
            "in-process subscribers[\(index)]: expected a subscriber name no other subscriber has, found \"\(name)\" again"
        case .invalidInProcessName(let index, let expected, let found):
            "in-process subscribers[\(index)]: expected \(expected), found \(found)"
        case .invalidInProcessOrder(let index, let key, let expected, let found):
            "in-process subscribers[\(index)].\(key): expected \(expected), found \(found)"
        }
    }
}
