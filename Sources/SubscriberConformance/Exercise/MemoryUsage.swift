import Foundation

/// This process's resident memory, from /proc/self/statm (Linux).
enum MemoryUsage {
    /// Resident set size in bytes; nil when /proc cannot be read.
    static func residentBytes() -> Int? {
        // statm: total, resident, shared, text, lib, data, dirty — in pages.
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// "12.3 MiB", signed when asked ("+0.1 MiB").
    static func mebibytes(_ bytes: Int, signed: Bool = false) -> String {
        let text = String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        return signed && bytes >= 0 ? "+" + text : text
    }
}
