import Foundation
import SubscriberKit
import SubscriberEventModel

/// The machine and build a benchmark ran on, as the report prints it.
struct MachineInfo: Sendable {
    var cpu: String
    var cores: Int
    var memory: String
    var kernel: String
    var swift: String
    var build: String
    /// ISO 8601, UTC.
    var date: String

    /// This executable, for the load benchmark's child processes.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// What this process runs on, now.
    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #if DEBUG
        let build = "debug (figures are not representative: use -c release)"
        #else
        let build = "release"
        #endif
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return MachineInfo(
            cpu: field("model name", in: cpuinfo) ?? "unknown CPU",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memory: field("MemTotal", in: meminfo).map(gigabytes) ?? "unknown",
            kernel: "Linux " + kernel,
            swift: swiftVersion(),
            build: build,
            date: formatter.string(from: Date()))
    }

    /// The value of the first `key: value` line of a /proc file.
    private static func field(_ key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// "24605248 kB" → "23.5 GiB".
    private static func gigabytes(_ kilobytes: String) -> String {
        guard let value = Double(kilobytes.split(separator: " ").first ?? "") else { return kilobytes }
        return String(format: "%.1f GiB", value / 1024 / 1024)
    }

    /// `swift --version`'s first line when a toolchain is on the PATH (as under `swift run`), else the
    /// compiler version this executable was built with.
    private static func swiftVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 0, let line = text.split(separator: "\n").first(where: { $0.contains("Swift version") }) {
                return line.trimmingCharacters(in: .whitespaces)
            }
        }
        return "Swift " + SubscriberPlugin.swiftCompilerVersion + " (compiler of this build)"
    }

    /// As JSON.
    var json: JSONValue {
        ["cpu": .string(cpu), "cores": .number(Double(cores)), "memory": .string(memory), "kernel": .string(kernel),
         "swift": .string(swift), "build": .string(build), "date": .string(date)]
    }
}
