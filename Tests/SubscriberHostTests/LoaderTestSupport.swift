import Foundation
import Testing
import BuiltProducts
@testable import SubscriberHost

/// A fresh folder under the system temp directory, mode 0755 (so the loader's writability check
/// passes unless a test loosens it). Removed by `remove()`.
struct TestDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/adh-loader-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw TestSetupError("mkdtemp failed: errno \(errno)") }
        // Real path: /tmp may itself be a symlink, and the loader reports real folders.
        path = FilePaths.realPath(String(cString: made))!
        try setMode(0o755)
    }

    /// `path/name`.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` (mode 0644) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
        let target = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
        return target
    }

    /// Copies the file at `source` to `name` with `mode` and returns its path.
    @discardableResult
    func copy(_ source: String, to name: String, mode: Int = 0o755) throws -> String {
        let target = file(name)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
        return target
    }

    /// Makes `name` a symlink to `destination` and returns its path.
    @discardableResult
    func symlink(_ name: String, to destination: String) throws -> String {
        let target = file(name)
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: destination)
        return target
    }

    /// Makes sub-folder `name` (mode 0755) and returns it as a TestDirectory.
    func subdirectory(_ name: String) throws -> TestDirectory {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        return TestDirectory(existing: file(name))
    }

    /// Sets this folder's mode.
    func setMode(_ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    private init(existing: String) { path = existing }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where SwiftPM put the plugin libraries: beside the test binary (``BuiltProducts``).
enum BuiltPlugins {
    static var directory: String { BuiltProducts.directory }

    /// The path of `lib<name>.so` in the build folder; a missing one fails the test.
    static func path(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        BuiltProducts.library(name, sourceLocation: sourceLocation)
    }
}

/// How check 2's writable-file errors end: what to do about it.
let chmodAdvice = "remove the write bit (chmod go-w) or allow writable plugins explicitly (apphost --allow-writable; HostOptions.allowWritable)"
