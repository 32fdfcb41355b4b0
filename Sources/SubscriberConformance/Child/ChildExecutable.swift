import Foundation

/// Finds the executable whose hidden child command runs the checks.
enum ChildExecutable {
    /// The executable's name beside the current one.
    static let name = "apphost"

    /// `explicit`, else `$APPHOST_EXECUTABLE`, else `apphost` beside the current executable, else
    /// `.build/debug/apphost` under the current directory: the first that is an executable file.
    static func resolve(_ explicit: String?) throws(ConformanceSetupError) -> String {
        var candidates: [String] = []
        if let explicit {
            candidates = [explicit]
        } else {
            if let fromEnvironment = ProcessInfo.processInfo.environment["APPHOST_EXECUTABLE"], !fromEnvironment.isEmpty {
                candidates.append(fromEnvironment)
            }
            if let current = currentExecutable() {
                candidates.append(URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(name).path)
            }
            candidates.append(FileManager.default.currentDirectoryPath + "/.build/debug/" + name)
        }
        for candidate in candidates {
            let absolute = candidate.hasPrefix("/") ? candidate : FileManager.default.currentDirectoryPath + "/" + candidate
            if FileManager.default.isExecutableFile(atPath: absolute) { return absolute }
        }
        throw .noChildExecutable(tried: candidates)
    }

    /// The running executable's path (/proc/self/exe, symlinks resolved).
    static func currentExecutable() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
