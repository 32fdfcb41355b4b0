import Foundation
import Testing

/// `apphost … | head -1`: the reader goes away early. apphost must end normally (status 0), not die
/// of SIGPIPE (status 141), as shells and scripts see it through `pipefail`.
@Suite("CLI: a closed pipe")
struct CLIPipeTests {
    @Test func earlyClosedPipeIsNotFatal() throws {
        // Far more output than a pipe buffers (64 KiB), so apphost is still writing when head exits.
        let script = "{\"event\": \"didFinishLaunching\"}\n"
            + String(repeating: "{\"event\": \"didReceiveMemoryWarning\"}\n", count: 3_000)
        let scriptFile = NSTemporaryDirectory() + "/adh-pipe-\(getpid()).jsonl"
        try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptFile) }

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "set -o pipefail; \"$0\" --manifest \"$1\" --events \"$2\" | head -1 > /dev/null",
                           AppHostProcess.executable, AppHostProcess.manifest("news.json"), scriptFile]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }
}
