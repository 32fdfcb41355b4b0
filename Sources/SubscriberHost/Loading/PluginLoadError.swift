/// Why a plugin file was refused. One case per load-time check (docs/manifest.md), in the order they run
/// (cheapest first); each description is one line naming the file, what was expected and what was
/// found.
package enum PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    // Check 1: the file exists and is a regular file (or a symlink to one).
    /// Nothing usable at `path`; `found` says what is there ("nothing", "a directory", …).
    case notAFile(path: String, found: String)
    /// `library: name` was not found as `fileName` in any of `searched` (in search order).
    /// `build`: the first of them that is a SwiftPM build folder (``SwiftPMBuild``), whose command
    /// the description names; decided where the error is made, so that the description only reads
    /// what is stored.
    case libraryNotFound(library: String, fileName: String, searched: [String], build: SwiftPMBuild? = nil, nearest: String? = nil)

    // Check 2: not writable by group or others, nor any folder on the way to it; each owned by the
    // current effective user or root.
    /// `place` (the file, or a folder on the way to it) is writable by group or others: `mode` is its mode.
    case writable(path: String, place: WritablePlace, mode: UInt32)
    /// `place` (the file, or a folder on the way to it) is owned by uid `owner`, neither `user` (the
    /// current effective user) nor root: that owner could rewrite or replace it after it was checked.
    case foreignOwner(path: String, place: OwnedPlace, owner: UInt32, user: UInt32)

    // Check 3: the pinned SHA-256.
    /// The file's SHA-256 differs from the manifest's pin.
    case checksumMismatch(path: String, expected: String, found: String)
    /// The file could not be read to hash it.
    case unreadable(path: String, reason: String)

    // Check 4: dlopen.
    /// `dlopen(RTLD_NOW | RTLD_LOCAL)` failed; `reason` is `dlerror()`.
    case dlopenFailed(path: String, reason: String)

    // Check 5: the entry symbol.
    /// No `adh_plugin_entry` symbol: not a subscriber plugin.
    case noEntrySymbol(path: String)
    /// `adh_plugin_entry` returned NULL instead of a descriptor.
    case nullDescriptor(path: String)

    // Check 6: struct size and ABI major.
    /// The plugin's ABI major differs from the host's.
    case abiMismatch(path: String, hostMajor: UInt32, pluginMajor: UInt32, pluginMinor: UInt32)
    /// `struct_size` is smaller than the ABI 1.0 descriptor.
    case descriptorTooSmall(path: String, minimum: Int, found: UInt32)

    // Check 7: the Swift compiler version.
    /// A Swift plugin built by another compiler major.minor than the host's.
    case swiftVersionMismatch(path: String, host: String, plugin: String)

    // Check 8: descriptor fields well-formed.
    /// Descriptor field `field` is malformed: expected `expected`, found `found`.
    case malformedDescriptor(path: String, field: String, expected: String, found: String)

    // Check 9: every requested subscriber exists (and can be made).
    /// The manifest asks for `name`, which the plugin does not declare.
    case unknownSubscriber(path: String, name: String, declared: [String])

    /// The plugin declares `name` but cannot make it: `reason` is "create returned NULL" or "the
    /// subscriber has no destroy" (found when the host makes its subscribers, after check 10).
    case createFailed(path: String, name: String, reason: String)
    /// Making subscriber `name`, `source` (`create`, or `get_extension("adh.scene/1")`) returned a
    /// struct the host cannot read: misaligned, or memory its `struct_size` covers unreadable.
    case unreadableStruct(path: String, name: String, source: String, expected: String, found: String)

    // Check 10: subscriber names unique across loaded plugins.
    /// `name` is also provided by an entry loaded before: `provider` names it, as the `owners` table
    /// of ``PluginLoader/loadEntry(_:locator:owners:)`` does (`plugins[0] "/path/libX.so"`), so that a
    /// file listed twice is told apart from itself.
    case duplicateSubscriber(path: String, name: String, provider: String)

    // Added with the descriptor-based load path (checks 2, 4 and 5).
    /// Check 2: the file or a folder on the way changed while it was being checked (`found` says how):
    /// what was opened is not what the path leads to any more.
    case fileReplaced(path: String, found: String)
    /// Check 4, run before hashing (it reads 64 bytes): not a shared object this host can load.
    case notELF(path: String, found: String)
    /// Check 5: `adh_plugin_entry` exists but is not a function (`found`: "a data object", …);
    /// calling it would crash the host.
    case entryNotAFunction(path: String, found: String)

    // Refused before check 4 (the scan cache, docs/cli.md): no code of the file runs.
    /// Inspecting this very file (same path, size, modification time and SHA-256) in a child crashed
    /// or hung (`reason`, on `date`), as the scan cache `cache` remembers: refused until it changes.
    case blacklisted(path: String, reason: String, date: String, cache: String)
    /// What the child that inspected the file for `apphost list` found: the failed `check` and its
    /// line, as that child's loader wrote it.
    case inspected(path: String, check: Int, message: String)

    /// Which of the ten load-time checks failed (1…10).
    package var check: Int {
        switch self {
        case .notAFile, .libraryNotFound: 1
        case .writable, .foreignOwner, .fileReplaced: 2
        case .checksumMismatch, .unreadable: 3
        case .dlopenFailed, .notELF: 4
        case .noEntrySymbol, .nullDescriptor, .entryNotAFunction: 5
        case .abiMismatch, .descriptorTooSmall: 6
        case .swiftVersionMismatch: 7
        case .malformedDescriptor: 8
        case .unknownSubscriber, .createFailed, .unreadableStruct: 9
        case .duplicateSubscriber: 10
        case .blacklisted: 4
        case .inspected(_, let check, _): check
        }
    }

    package var description: String {
        switch self {
        case .notAFile(let path, let found):
            return "plugin \"\(path)\": expected a regular file, found \(found)"
        case .libraryNotFound(let library, let fileName, let searched, let build, let nearest):
            let places = searched.isEmpty ? "(no search directories)" : searched.joined(separator: ", ")
            // A library of a name close to this one is there: a typo, not a missing build. Else a
            // SwiftPM build folder without the library: most likely nothing was built yet.
            let hint = nearest.map { " (did you mean \"\($0)\"?)" } ?? build.map { " (build the plugins first: \($0.command))" } ?? ""
            return "plugin library \"\(library)\": expected \(fileName) in one of \(places), found it in none\(hint)"
        case .writable(let path, let place, let mode):
            let octal = "0" + String(mode & 0o7777, radix: 8)
            let who = mode & 0o022 == 0o022 ? "group and others" : (mode & 0o020 != 0 ? "group" : "others")
            var expected = "\(place.noun) not writable by group or others"
            var found = "mode \(octal) (writable by \(who))"
            if case .sticky(_, let entry, let owner) = place {
                expected += ", or sticky with \"\(entry)\" in it owned by you or root"
                found += " with \"\(entry)\" owned by uid \(owner)"
            }
            return "plugin \"\(path)\": expected \(expected), found \(found); "
                + "remove the write bit (chmod go-w) or allow writable plugins explicitly (apphost --allow-writable; HostOptions.allowWritable)"
        case .foreignOwner(let path, let place, let owner, let user):
            return "plugin \"\(path)\": expected \(place.noun) owned by you (uid \(user)) or root, found owner uid \(owner); "
                + "give it to root or to you (chown) or allow writable plugins explicitly (apphost --allow-writable; HostOptions.allowWritable)"
        case .checksumMismatch(let path, let expected, let found):
            return "plugin \"\(path)\": SHA-256 does not match the manifest's pin: expected \(expected), found \(found)"
        case .unreadable(let path, let reason):
            return "plugin \"\(path)\": expected a readable file to check its SHA-256, found \(reason)"
        case .dlopenFailed(let path, let reason):
            return "plugin \"\(path)\": could not load library: \(reason)"
        case .noEntrySymbol(let path):
            return "plugin \"\(path)\" is not a subscriber plugin: no symbol adh_plugin_entry"
        case .nullDescriptor(let path):
            return "plugin \"\(path)\": expected adh_plugin_entry to return a descriptor, found NULL"
        case .abiMismatch(let path, let hostMajor, let pluginMajor, let pluginMinor):
            return "plugin \"\(path)\": ABI mismatch: expected ABI \(hostMajor).x (the host's), found \(pluginMajor).\(pluginMinor); "
                + "rebuild the plugin against this host's SubscriberABI.h" + (pluginMajor > hostMajor ? ", or use a host that speaks \(pluginMajor).x" : "")
        case .descriptorTooSmall(let path, let minimum, let found):
            return "plugin \"\(path)\": expected a descriptor struct_size of at least \(minimum) (ABI 1.0), found \(found)"
        case .swiftVersionMismatch(let path, let host, let plugin):
            return "plugin \"\(path)\": Swift compiler mismatch: expected \(host) (the host's), found \(plugin); "
                + "rebuild the plugin with the host's toolchain"
        case .malformedDescriptor(let path, let field, let expected, let found):
            return "plugin \"\(path)\": malformed descriptor: \(field): expected \(expected), found \(found)"
        case .unknownSubscriber(let path, let name, let declared):
            let list = declared.isEmpty ? "(nothing)" : declared.joined(separator: ", ")
            return "plugin \"\(path)\" declares no subscriber named \(name); it declares: \(list)"
        case .createFailed(let path, let name, let reason):
            return "plugin \"\(path)\": expected create(\"\(name)\") to make a subscriber it declares, found that \(reason)"
        case .unreadableStruct(let path, let name, let source, let expected, let found):
            return "plugin \"\(path)\": subscriber \(name): \(source): expected \(expected), found \(found)"
        case .duplicateSubscriber(let path, let name, let provider):
            return "plugin \"\(path)\": expected subscriber names unique across plugins, found \(name) also in \(provider)"
        case .fileReplaced(let path, let found):
            return "plugin \"\(path)\": expected the file to stay in place while it is checked, found \(found)"
        case .notELF(let path, let found):
            return "plugin \"\(path)\": could not load library: expected an ELF shared object, found \(found)"
        case .blacklisted(let path, let reason, let date, let cache):
            return "plugin \"\(path)\": expected a file apphost list could scan to the end, found that its scan "
                + "\(reason) on \(date); refused until the file changes"
                + (cache.isEmpty ? "" : " (remembered in \(cache))")
        case .inspected(_, _, let message):
            return message
        case .entryNotAFunction(let path, let found):
            return "plugin \"\(path)\": adh_plugin_entry is not a function (found \(found)); "
                + "export a function returning the descriptor"
        }
    }
}
