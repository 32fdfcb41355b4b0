import Glibc
import Testing

/// Where SwiftPM put this package's products for the running tests: the folder of the test binary
/// itself (`/proc/self/exe`, resolved). SwiftPM puts the test bundle, the plugin libraries and
/// `apphost` side by side there, whatever the configuration (`-c debug|release`), `--build-path`,
/// `--scratch-path` or triple folder. Shared by the test targets so that rule lives in one place.
public enum BuiltProducts {
    /// The folder holding the running test binary.
    public static let directory: String = {
        guard let resolved = realpath("/proc/self/exe", nil) else { return "(unresolvable /proc/self/exe)" }
        defer { free(resolved) }
        let executable = String(cString: resolved)
        return String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
    }()

    /// The path of product file `name` in ``directory``. When it is not there, records one issue
    /// naming the folder and the file (at the caller's line) rather than looking anywhere else: a
    /// product of another configuration would be stale.
    public static func file(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let path = directory + "/" + name
        if access(path, F_OK) != 0 {
            let advice = "build with `swift build` (same -c and --scratch-path) before `swift test`"
            Issue.record("\(name) not found beside the test binary in \(directory); \(advice)",
                         sourceLocation: sourceLocation)
        }
        return path
    }

    /// The path of plugin library `lib<name>.so` in ``directory`` (an issue when it is missing).
    public static func library(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        file("lib\(name).so", sourceLocation: sourceLocation)
    }
}
