/// `apphost check PLUGIN.so…`: the conformance kit (SPEC §7). Placeholder until the kit lands.
public enum CheckCommand {
    /// Runs `apphost check` with the arguments after "check"; returns the exit code.
    public static func run(_ arguments: [String]) async -> Int32 {
        _ = arguments
        return 2
    }

    /// The hidden child command the kit re-runs this executable with, one check per child.
    public static let childCommandName = "__conformance-child"

    /// Runs the hidden child command; returns the exit code.
    public static func runChild(_ arguments: [String]) async -> Int32 { _ = arguments; return 2 }
}
