#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a manifest file's bytes, turning every way it can be missing into one ``ManifestError``.
enum ManifestFile {
    /// Manifests are small; anything larger is a mistake (a binary named .json, say).
    static let maximumSize = 16 * 1024 * 1024

    static func contents(of path: String) throws(ManifestError) -> [UInt8] {
        func failure(_ found: String) -> ManifestError {
            ManifestError(file: path, location: "", expected: "a readable manifest file", found: found)
        }
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            throw failure(code == ENOENT ? "nothing at that path" : FilePaths.errorText(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw failure("a directory") }
        if info.st_size > maximumSize {
            throw ManifestError(file: path, location: "", expected: "a readable manifest file of at most \(maximumSize >> 20) MiB",
                                found: "a file of \(info.st_size) bytes")
        }

        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw failure("a file it cannot open (\(FilePaths.errorText(errno)))") }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
                if bytes.count > maximumSize { throw failure("a file larger than \(maximumSize) bytes") }
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw failure("a file it cannot read (\(FilePaths.errorText(errno)))")
            }
        }
    }
}
