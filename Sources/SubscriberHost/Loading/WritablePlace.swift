/// What check 2 found writable by group or others, for ``PluginLoadError/writable(path:place:mode:)``.
package indirect enum WritablePlace: Sendable, Equatable {
    /// The plugin file itself.
    case file
    /// The folder holding the plugin file, or holding the link the given path names.
    case directory(String)
    /// A folder on the way from `/` to the file.
    case folderOnTheWay(String)
    /// The folder holding `link`, a symbolic link on the way: whoever writes there can re-point it.
    case linkFolder(String, link: String)
    /// A sticky folder writable by others (only an entry's owner may rename it there), whose entry on
    /// the way, `entry`, is owned by `owner`: neither the current user nor root.
    case sticky(WritablePlace, entry: String, owner: UInt32)

    /// `a file`, `its directory "/a"`, `the directory "/a" on the way to it`, …
    var noun: String {
        switch self {
        case .file: "a file"
        case .directory(let folder): "its directory \"\(folder)\""
        case .folderOnTheWay(let folder): "the directory \"\(folder)\" on the way to it"
        case .linkFolder(let folder, let link): "the directory \"\(folder)\" holding the link \"\(link)\""
        case .sticky(let place, _, _): place.noun
        }
    }
}

/// What check 2 found owned by another user, for ``PluginLoadError/foreignOwner(path:place:owner:user:)``:
/// the owner of a file or folder may rewrite or replace it whatever its mode says.
package enum OwnedPlace: Sendable, Equatable {
    /// The plugin file itself, by its real path.
    case file(String)
    /// A folder on the way from `/` to the file (or to a link's target).
    case directory(String)

    /// `the file "/a/p.so"` or `the directory "/a"`.
    var noun: String {
        switch self {
        case .file(let path): "the file \"\(path)\""
        case .directory(let folder): "the directory \"\(folder)\""
        }
    }
}
