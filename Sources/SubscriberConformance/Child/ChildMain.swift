#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit

/// The child side: runs one check on one plugin and writes the verdict line. Everything a plugin can
/// do wrong (crash, hang, exit) happens here, in a process the parent can afford to lose.
enum ChildMain {
    /// Runs the request in `arguments` (one JSON argument); returns the exit code (0 when a verdict
    /// was written, 2 when the request is unusable).
    static func run(arguments: [String]) async -> Int32 {
        guard arguments.count == 1, let json = try? JSONValue(parsing: arguments[0]), let request = ChildRequest(json: json)
        else {
            printError("conformance child: expected one JSON request argument, found \(arguments.count) argument(s)")
            return 2
        }
        guard let check = CheckRegistry.check(request.check) else {
            printError("conformance child: expected a check id, found '\(request.check)'")
            return 2
        }
        ChildWire.write(ChildWire.helloLine)
        let (verdict, identity) = await runCheck(check, request)
        ChildWire.write(ChildWire.verdictPrefix + ChildWire.verdictJSON(verdict, identity: identity).serialized())
        return 0
    }

    @MainActor
    private static func runCheck(_ check: any ConformanceCheck, _ request: ChildRequest) async -> (Verdict, PluginIdentity?) {
        let environment = CheckEnvironment(request: request)
        let verdict = await check.run(in: environment)
        return (verdict, environment.identity)
    }

    private static func printError(_ message: String) {
        var standardError = StandardError()
        print(message, to: &standardError)
    }
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        let bytes = Array(string.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
