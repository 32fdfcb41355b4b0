import Foundation

/// Instruction counts by callgrind, when valgrind and strip are installed: this executable and the
/// plugins copied to a private folder and `strip --strip-debug`ed (valgrind cannot read this
/// toolchain's debug info), each measured loop run under `valgrind --tool=callgrind` twice, with
/// two event counts, so that start-up, loading and set-up cancel out: (large − small) / (difference).
/// Counts do not move with the machine's load, which the wall clock does: the verdicts use them.
struct InstructionCounter {
    let valgrind: String
    let folder: String
    /// The stripped copy of the executable that is run.
    let executable: String
    /// The stripped copies of the libraries, in the order given to ``make(executable:libraries:note:)``,
    /// side by side with ``executable`` (so `apphost` finds a manifest's `library` entries beside itself).
    let libraries: [String]

    /// The basis the verdicts use when this is nil.
    static let wallBasis = "wall clock (callgrind not used)"

    /// A counter over stripped copies of `executable` and `libraries` in a private folder; nil (with
    /// why on `note`) when valgrind or strip is missing or the copies cannot be made.
    static func make(executable: String, libraries: [String], note: (String) -> Void) -> InstructionCounter? {
        guard let valgrind = findExecutable("valgrind") else {
            note("instructions: valgrind not found on PATH; verdicts on the wall clock")
            return nil
        }
        guard let strip = findExecutable("strip") else {
            note("instructions: strip not found on PATH; verdicts on the wall clock")
            return nil
        }
        do {
            let folder = try PrivateFolder.make(prefix: "subscriber-bench-callgrind")
            var copies: [String] = []
            for source in [executable] + libraries {
                let copy = folder + "/" + (source as NSString).lastPathComponent
                try FileManager.default.copyItem(atPath: source, toPath: copy)
                let outcome = try TimedChild.run(strip, ["--strip-debug", copy])
                guard outcome.exitStatus == 0 else { throw BenchError("strip --strip-debug \(copy) failed") }
                copies.append(copy)
            }
            return InstructionCounter(valgrind: valgrind, folder: folder, executable: copies[0],
                                      libraries: Array(copies.dropFirst()))
        } catch {
            note("instructions: \(error); verdicts on the wall clock")
            return nil
        }
    }

    /// "callgrind (valgrind X), stripped copies".
    var basis: String {
        "instructions (callgrind, \(valgrindVersion()), stripped copies)"
    }

    /// Removes the copies.
    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Instructions per event of the stripped executable run with `arguments(events)`: the count at
    /// `large` events minus the count at `small`, over the difference.
    func perEvent(small: Int, large: Int, _ arguments: (Int) -> [String]) throws -> Double {
        let low = try total(arguments(small))
        let high = try total(arguments(large))
        return (Double(high) - Double(low)) / Double(large - small)
    }

    /// Instructions of one run of the stripped executable (callgrind's "Collected" line).
    func total(_ arguments: [String]) throws -> UInt64 {
        let log = folder + "/callgrind.log"
        let command = ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=" + log, executable] + arguments
        let outcome = try TimedChild.run(valgrind, command)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard outcome.exitStatus == 0, let line = text.split(separator: "\n").last(where: { $0.contains("Collected :") }),
              let count = line.split(separator: " ").last.flatMap({ UInt64($0) }) else {
            throw BenchError("valgrind \(command.joined(separator: " ")): "
                             + (outcome.exitStatus.map { "exit status \($0)" } ?? "ended by a signal")
                             + "; expected exit 0 and a \"Collected :\" line in \(log)")
        }
        return count
    }

    private func valgrindVersion() -> String {
        let out = folder + "/version.txt"
        guard (try? TimedChild.run(valgrind, ["--version"], standardOutput: out))?.exitStatus == 0,
              let text = try? String(contentsOfFile: out, encoding: .utf8) else { return "valgrind" }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `name` in a folder of PATH, executable; nil when none is.
    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
