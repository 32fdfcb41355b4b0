#if canImport(Glibc)
import Glibc
#endif

/// Finds the file behind a manifest plugin entry. `path` is relative to the manifest's folder;
/// `library: X` is `libX.so` in, in order: the manifest's `pluginSearchPaths`, the caller's extra
/// directories (`--plugin-dir`), then the running executable's folder. Never the system's library
/// search path: a plugin is always named to `dlopen` by a path with a slash.
package struct PluginLocator: Sendable, Hashable {
    /// The folder `path` entries are relative to.
    package var baseDirectory: String
    /// Where `library` entries are searched for, in order, absolute, without repeats.
    package var searchDirectories: [String]

    /// The locator for `manifest`. `extraDirectories` are relative to the current directory unless
    /// absolute; `executableDirectory` defaults to `/proc/self/exe`'s folder (nil leaves it out).
    package init(manifest: Manifest, extraDirectories: [String] = [],
                executableDirectory: String? = PluginLocator.runningExecutableDirectory) {
        var directories = manifest.pluginSearchDirectories + extraDirectories.map(FilePaths.absolute)
        if let executableDirectory { directories.append(executableDirectory) }
        self.init(baseDirectory: manifest.directory, searchDirectories: directories)
    }

    /// A locator with explicit directories (made absolute against the current directory; repeats dropped).
    package init(baseDirectory: String, searchDirectories: [String]) {
        self.baseDirectory = FilePaths.absolute(baseDirectory)
        var seen: Set<String> = []
        self.searchDirectories = searchDirectories.map(FilePaths.absolute).filter { seen.insert($0).inserted }
    }

    /// The folder of the running executable (`/proc/self/exe`), the last place libraries are searched.
    package static var runningExecutableDirectory: String? { FilePaths.executableDirectory() }

    /// The library in `directories` whose name is closest to `name` (a typo's: at most two edits,
    /// case ignored), nil when none is. Reads at most ``nearNameLimit`` names a folder.
    static func nearestLibrary(to name: String, in directories: [String]) -> String? {
        var names: [String] = []
        for directory in directories {
            guard let folder = opendir(directory) else { continue }
            defer { closedir(folder) }
            var read = 0
            while read < nearNameLimit, let entry = readdir(folder) {
                read += 1
                let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard file.hasPrefix("lib"), file.hasSuffix(".so"), file.count > 6 else { continue }
                names.append(String(file.dropFirst(3).dropLast(3)))
            }
        }
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        // At most two edits: each comparison is linear in the names' length (``editDistance(_:_:atMost:)``).
        for candidate in names where candidate != name {
            let distance = editDistance(lowered, candidate.lowercased(), atMost: 2)
            if distance <= 2, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The most entries a folder is read for ``nearestLibrary(to:in:)``.
    static let nearNameLimit = 4_096

    /// The file name a library entry stands for: `X` → `libX.so`.
    package static func fileName(ofLibrary name: String) -> String { "lib\(name).so" }

    /// The file of `source`. A `path` is returned joined, whether or not it exists (the loader's
    /// first check says what is wrong with it); a `library` must be found or this throws
    /// ``PluginLoadError/libraryNotFound(library:fileName:searched:build:)`` listing where it looked.
    package func locate(_ source: ManifestPlugin.Source) throws(PluginLoadError) -> String {
        switch source {
        case .path(let path):
            return FilePaths.resolve(path, against: baseDirectory)
        case .library(let name):
            let fileName = Self.fileName(ofLibrary: name)
            for directory in searchDirectories {
                let candidate = FilePaths.resolve(fileName, against: directory)
                if FilePaths.isRegularFile(candidate) { return candidate }
            }
            // Only here, on the way out, are the folders looked at for a near name and the build-first hint.
            throw .libraryNotFound(library: name, fileName: fileName, searched: searchDirectories,
                                   build: searchDirectories.lazy.compactMap { SwiftPMBuild(folder: $0) }.first,
                                   nearest: Self.nearestLibrary(to: name, in: searchDirectories))
        }
    }
}
