#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Check 2 for the folders: whoever can write to a folder on the way to the plugin can make the host
/// run their code, by replacing the file, a folder or a symlink in it. So every folder from `/` to
/// the file is examined, and every link of a symlink chain: the folder holding each link, and the
/// folders on the way to each target.
///
/// The usual safe-path rule: a folder is safe when it is owned by the current effective user or root
/// (its owner may change it whatever its mode says), and neither group nor others can write to it, or
/// it is sticky (like `/tmp`) and the entry on the way in it is owned by the current user or root —
/// in a sticky folder only an entry's owner can rename or remove it. (A symbolic link's owner cannot
/// change it: only who writes to its folder can.) The file itself is checked by ``PluginFile``.
///
/// The path is resolved step by step, as the kernel does (`..` after a symlink means the target's
/// parent), with `lstat` and `readlink`; each step's folder is checked before the step is taken.
struct SafePath {
    /// The path as given (absolute): errors name it.
    let path: String

    /// The most symlinks followed, as the kernel's limit (ELOOP).
    static let maximumLinks = 40

    /// Walks to the file and returns its real path (absolute, no symlinks, no `.` or `..`) and its
    /// `lstat`. Throws ``PluginLoadError/writable(path:place:mode:)`` or
    /// ``PluginLoadError/foreignOwner(path:place:owner:user:)`` for the first unsafe folder.
    func resolve(verified: VerifiedFolders = VerifiedFolders()) throws(PluginLoadError) -> (realPath: String, info: stat) {
        let user = verified.user
        var pending: [Substring] = Array(path.split(separator: "/").reversed())  // a stack: next step last
        var folder = "/"  // the real folder reached so far (absolute, no symlinks, no `.` or `..`)
        var folderInfo = try examineOwnedFolder("/", verified: verified)
        var linksFollowed = 0

        while let step = pending.popLast() {
            if step == "." { continue }
            if step == ".." {
                // Back to a folder already checked on the way down (only root can change its owner).
                if folder != "/" {
                    folder = FilePaths.directory(of: folder)
                    if let known = verified.info(of: folder) { folderInfo = known } else { folderInfo = try examine(folder) }
                }
                continue
            }
            // `String(step)`: appending the `Substring` itself goes through the generic append, whose
            // first call after a plugin is loaded checks requirements against every image (240,000 instructions).
            let name = String(step)
            let entryPath = folder == "/" ? "/" + name : folder + "/" + name
            let isLast = pending.allSatisfy { $0 == "." }
            if !isLast, let known = verified.info(of: entryPath) {
                // A folder this batch already reached safely: only you or root can have changed it since.
                folder = entryPath
                folderInfo = known
                continue
            }
            let entry = try examine(entryPath)
            let kind = entry.st_mode & S_IFMT

            if let place = unsafePlace(folder: folder, info: folderInfo, entryName: name, entry: entry,
                                       kind: kind, isLast: isLast, isNamedByUser: linksFollowed == 0 && isLast,
                                       user: user) {
                throw .writable(path: path, place: place, mode: UInt32(folderInfo.st_mode))
            }

            switch kind {
            case S_IFLNK:
                linksFollowed += 1
                if linksFollowed > Self.maximumLinks {
                    throw .notAFile(path: path, found: "a chain of more than \(Self.maximumLinks) symbolic links")
                }
                let target = try readLink(entryPath)
                if target.hasPrefix("/") {
                    folder = "/"
                    folderInfo = try examineOwnedFolder("/", verified: verified)
                }
                pending += target.split(separator: "/").reversed()
            case S_IFDIR:
                try checkOwner(entry, of: .directory(entryPath), user: user)
                folder = entryPath
                folderInfo = entry
                verified.remember(entry, of: folder)
            case S_IFREG where isLast:
                return (entryPath, entry)
            default:
                // Check 1 opened a regular file here a moment ago: something changed on the way.
                throw .fileReplaced(path: path, found: "\"\(entryPath)\" is not a folder nor the file any more")
            }
        }
        throw .fileReplaced(path: path, found: "the path ends at the folder \"\(folder)\"")
    }

    /// Where `entryName` in `folder` is unsafe, or nil when it is safe.
    private func unsafePlace(folder: String, info: stat, entryName: String, entry: stat, kind: mode_t, isLast: Bool,
                             isNamedByUser: Bool, user: uid_t) -> WritablePlace? {
        guard info.st_mode & mode_t(S_IWGRP | S_IWOTH) != 0 else { return nil }
        let sticky = info.st_mode & mode_t(S_ISVTX) != 0
        if sticky && Self.trusts(owner: entry.st_uid, user: user) { return nil }
        let place: WritablePlace
        if kind == S_IFREG && isLast || isNamedByUser {
            place = .directory(folder)
        } else if kind == S_IFLNK {
            place = .linkFolder(folder, link: FilePaths.resolve(entryName, against: folder))
        } else {
            place = .folderOnTheWay(folder)
        }
        return sticky ? .sticky(place, entry: entryName, owner: UInt32(entry.st_uid)) : place
    }

    /// Whether `owner` may own what is on the way: the current effective user `user`, or root.
    static func trusts(owner: uid_t, user: uid_t) -> Bool { owner == user || owner == 0 }

    /// Throws ``PluginLoadError/foreignOwner(path:place:owner:user:)`` unless `info`'s owner is trusted.
    func checkOwner(_ info: stat, of place: OwnedPlace, user: uid_t) throws(PluginLoadError) {
        guard Self.trusts(owner: info.st_uid, user: user) else {
            throw .foreignOwner(path: path, place: place, owner: UInt32(info.st_uid), user: UInt32(user))
        }
    }

    /// `lstat` of the folder `name`, owned by a trusted user (remembered in `verified`).
    private func examineOwnedFolder(_ name: String, verified: VerifiedFolders) throws(PluginLoadError) -> stat {
        if let known = verified.info(of: name) { return known }
        let info = try examine(name)
        try checkOwner(info, of: .directory(name), user: verified.user)
        verified.remember(info, of: name)
        return info
    }

    private func examine(_ name: String) throws(PluginLoadError) -> stat {
        var info = stat()
        guard lstat(name, &info) == 0 else {
            throw .fileReplaced(path: path, found: "\"\(name)\" gone (\(FilePaths.errorText(errno)))")
        }
        return info
    }

    private func readLink(_ name: String) throws(PluginLoadError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(name, &buffer, buffer.count - 1)
        guard count > 0 else {
            throw .fileReplaced(path: path, found: "the link \"\(name)\" unreadable (\(FilePaths.errorText(errno)))")
        }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The folders check 2 already reached safely during one load (a manifest's plugins, or one file),
/// by real path, with their `lstat`: the next plugin in the same folder walks `/`, `/a`, `/a/b`
/// without examining them again. Sound for the length of a load because a folder reached safely
/// lies in folders that only you or root can change (and only its owner, you or root, can change
/// it): nobody else can replace or re-mode anything in that chain meanwhile. Dropped when the load
/// ends, so a later load examines everything afresh.
final class VerifiedFolders {
    /// The current effective user, read once per load.
    let user: uid_t = geteuid()
    private var folders: [String: stat] = [:]

    /// The `lstat` of `folder` (a real path) if it was reached safely during this load.
    func info(of folder: String) -> stat? { folders[folder] }

    /// Records that `folder` (a real path, owner trusted, reached through safe folders) is safe.
    func remember(_ info: stat, of folder: String) { folders[folder] = info }
}
