import SubscriberHost

/// A command that cannot go on: a bad manifest, event script or log file, or a plugin that failed
/// to load. One line naming what, where, expected and found; the command exits with status 2.
package struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The one-line message, without the `apphost:` prefix.
    package var message: String

    /// An error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message itself.
    package var description: String { message }
}

/// The one line an error shows, made safe for a terminal: every value it quotes from outside (a
/// name, a manifest key, a script value, a path) goes through ``value(_:)`` or ``path(_:)``, so a
/// long one is cut — not the line's end, where it says what it expected and found.
enum ErrorLine {
    /// A value from outside as an error line quotes it: control characters escaped, cut after
    /// ``TerminalText/valueLimit`` (200) characters with its length: `aaaa… (1,536 bytes)`.
    static func value(_ text: String) -> String {
        TerminalText.escaped(text, limit: TerminalText.valueLimit)
    }

    /// A file path as an error line quotes it: the same, cut after ``TerminalText/pathLimit``
    /// characters (paths are longer than names).
    static func path(_ text: String) -> String {
        TerminalText.escaped(text, limit: TerminalText.pathLimit)
    }

    /// `error`'s description with the values it quotes escaped and cut.
    static func text(for error: any Error) -> String {
        switch error {
        case let error as HostError:
            switch error.reason {
            case .manifest(let manifestError): return text(for: manifestError)
            case .load(let setError):
                return PluginSetError(file: path(setError.file), pluginIndex: setError.pluginIndex, error: cut(setError.error)).description
            case .configuration(let file, let configurationError):
                return HostError(.configuration(file: path(file), configurationError)).description
            case .duplicateInProcessName(let name, let index):
                return HostError(.duplicateInProcessName(name: value(name), index: index)).description
            case .invalidInProcessName(let index, let expected, let found):
                return HostError(.invalidInProcessName(index: index, expected: expected, found: value(found))).description
            case .invalidInProcessOrder(let index, let key, let expected, let found):
                return HostError(.invalidInProcessOrder(index: index, key: key, expected: expected, found: value(found))).description
            }
        case let error as ManifestError:
            return ManifestError(file: path(error.file), location: value(error.location),
                                 expected: TerminalText.escaped(error.expected, limit: TerminalText.lineLimit / 4),
                                 found: value(error.found)).description
        case let error as EventScriptError:
            return EventScriptError(file: path(error.file), line: error.line, location: value(error.location),
                                    expected: TerminalText.escaped(error.expected, limit: TerminalText.lineLimit / 4),
                                    found: value(error.found)).description
        case let error as PluginLoadError:
            return cut(error).description
        default:
            return "\(error)"
        }
    }

    /// `error` with every path and value it carries cut (its message is then at most a few hundred
    /// characters per value, however long the manifest's library name or the plugin's strings).
    static func cut(_ error: PluginLoadError) -> PluginLoadError {
        switch error {
        case .notAFile(let file, let found): .notAFile(path: path(file), found: value(found))
        case .libraryNotFound(let library, let fileName, let searched, let build, let nearest):
            .libraryNotFound(library: value(library), fileName: value(fileName), searched: searched.map(path),
                             build: build.flatMap { build in
                                 // A scratch path that had to be cut or escaped would name another
                                 // folder once pasted: then no hint.
                                 guard let scratch = build.scratchPath else { return build }
                                 return path(scratch) == scratch ? build : nil
                             }, nearest: nearest.map(value))
        case .writable(let file, let place, let mode): .writable(path: path(file), place: place, mode: mode)
        case .foreignOwner(let file, let place, let owner, let user): .foreignOwner(path: path(file), place: place, owner: owner, user: user)
        case .checksumMismatch(let file, let expected, let found): .checksumMismatch(path: path(file), expected: value(expected), found: value(found))
        case .unreadable(let file, let reason): .unreadable(path: path(file), reason: value(reason))
        case .dlopenFailed(let file, let reason): .dlopenFailed(path: path(file), reason: TerminalText.escaped(reason, limit: TerminalText.lineLimit / 4))
        case .noEntrySymbol(let file): .noEntrySymbol(path: path(file))
        case .nullDescriptor(let file): .nullDescriptor(path: path(file))
        case .abiMismatch(let file, let host, let major, let minor): .abiMismatch(path: path(file), hostMajor: host, pluginMajor: major, pluginMinor: minor)
        case .descriptorTooSmall(let file, let minimum, let found): .descriptorTooSmall(path: path(file), minimum: minimum, found: found)
        case .swiftVersionMismatch(let file, let host, let plugin): .swiftVersionMismatch(path: path(file), host: value(host), plugin: value(plugin))
        case .malformedDescriptor(let file, let field, let expected, let found):
            .malformedDescriptor(path: path(file), field: value(field), expected: value(expected), found: value(found))
        case .unknownSubscriber(let file, let name, let declared):
            .unknownSubscriber(path: path(file), name: value(name), declared: declared.prefix(20).map(value) + (declared.count > 20 ? ["… (\(declared.count) in all)"] : []))
        case .createFailed(let file, let name, let reason): .createFailed(path: path(file), name: value(name), reason: value(reason))
        case .unreadableStruct(let file, let name, let source, let expected, let found):
            .unreadableStruct(path: path(file), name: value(name), source: value(source), expected: expected, found: found)
        case .duplicateSubscriber(let file, let name, let provider): .duplicateSubscriber(path: path(file), name: value(name), provider: value(provider))
        case .fileReplaced(let file, let found): .fileReplaced(path: path(file), found: value(found))
        case .notELF(let file, let found): .notELF(path: path(file), found: value(found))
        case .entryNotAFunction(let file, let found): .entryNotAFunction(path: path(file), found: value(found))
        case .blacklisted(let file, let reason, let date, let cache):
            .blacklisted(path: path(file), reason: value(reason), date: value(date), cache: path(cache))
        case .inspected(let file, let check, let message): .inspected(path: path(file), check: check, message: message)  // cut by the child
        }
    }

    /// `library "Name"` or `path "…"`, the value cut.
    static func source(_ source: ManifestPlugin.Source) -> String {
        switch source {
        case .library(let name): "library \"\(value(name))\""
        case .path(let file): "path \"\(path(file))\""
        }
    }
}
