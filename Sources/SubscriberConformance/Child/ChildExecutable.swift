import Foundation

/// The executable the kit runs each check in: the running one (any executable that links the kit
/// becomes a conformance child when the child-process layer starts it in the "conformance" role),
/// or an explicit one.
enum ChildExecutable {
    /// The running executable, as the kernel knows it: still the same file if it was rebuilt or
    /// deleted since it started.
    static let running = "/proc/self/exe"

    /// `explicit` (relative to the current directory unless absolute), else the running executable.
    static func resolve(_ explicit: String?) throws(ConformanceSetupError) -> String {
        guard let explicit else { return running }
        let candidate = explicit.hasPrefix("/") ? explicit : FileManager.default.currentDirectoryPath + "/" + explicit
        guard FileManager.default.isExecutableFile(atPath: candidate) else { throw .noChildExecutable(tried: [candidate]) }
        return candidate
    }
}
