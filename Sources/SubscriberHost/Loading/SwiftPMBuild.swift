#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A SwiftPM build folder searched for a library that was not there, and the command that builds
/// into it: the "build the plugins first" hint of ``PluginLoadError/libraryNotFound(library:fileName:searched:build:)``.
package struct SwiftPMBuild: Sendable, Equatable {
    /// Whether the folder is a release build's (`-c release`).
    package var release: Bool
    /// The folder `swift build --scratch-path` was given; nil for a package's own `.build`.
    package var scratchPath: String?

    package init(release: Bool = false, scratchPath: String? = nil) {
        self.release = release
        self.scratchPath = scratchPath
    }

    /// The build `directory` belongs to, or nil when it is no SwiftPM build folder. One SwiftPM
    /// made is known by what it writes there, `description.json` beside a `ModuleCache` or
    /// `Modules` folder (a debug and a release build have both); its real path is always
    /// `<scratch>/<triple>/<configuration>` (`<scratch>/<configuration>` is a link to it). A folder
    /// under `.build` that is not (yet) one is known by its path alone: the package's own build folder.
    package init?(folder directory: String) {
        let configurations = ["debug", "release"]
        if FilePaths.isRegularFile(FilePaths.resolve("description.json", against: directory)),
           FilePaths.isDirectory(FilePaths.resolve("ModuleCache", against: directory))
            || FilePaths.isDirectory(FilePaths.resolve("Modules", against: directory)),
           let real = Self.realPath(directory) {
            let parts = real.split(separator: "/").map(String.init)
            guard let last = parts.last, configurations.contains(last), parts.count >= 2 else {
                self.init()
                return
            }
            let scratch = parts.dropLast(2)
            // A package's own `.build`: built by a plain `swift build` in the package.
            self.init(release: last == "release", scratchPath: scratch.last == ".build" ? nil : "/" + scratch.joined(separator: "/"))
        } else if let dotBuild = directory.split(separator: "/").lastIndex(of: ".build") {
            let parts = directory.split(separator: "/")
            self.init(release: parts[(dotBuild + 1)...].first(where: { configurations.contains(String($0)) }) == "release")
        } else {
            return nil
        }
    }

    /// The command, as it would be typed: `swift build`, `-c release` for a release build, and
    /// `--scratch-path` with the folder (single-quoted when a shell would split or expand it).
    package var command: String {
        var command = "swift build"
        if release { command += " -c release" }
        if let scratchPath { command += " --scratch-path " + Self.shellQuoted(scratchPath) }
        return command
    }

    /// `text` as a shell reads it back: as it is when every byte is one a shell takes literally,
    /// else in single quotes (a quote inside written `'\''`).
    static func shellQuoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-")
        }
        if plain && !text.isEmpty { return text }
        var quoted = "'"
        for character in text { quoted += character == "'" ? "'\\''" : String(character) }
        return quoted + "'"
    }

    /// `path` with every link and `.` or `..` resolved; nil when it names nothing.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
