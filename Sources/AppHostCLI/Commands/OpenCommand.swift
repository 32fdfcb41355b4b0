#if canImport(Glibc)
import Glibc
#endif
import SubscriberHost
import SubscriberKit

/// `apphost open --manifest FILE URL`: hands URL to the app, as a desktop's URL-scheme handler does:
/// `openURL` to the live host running for the manifest's bundle identifier, or, when none runs,
/// this process becomes one (`apphost run --manifest FILE --url URL`, a cold launch).
enum OpenCommand {
    static let spec = CommandSpec(
        name: "open",
        summary: "Open a URL in the running live host, or start one launched with it.",
        options: [
            .value("manifest", "FILE", short: "m", help: "The app's manifest (its bundle identifier names the socket).", required: true),
            .value("plugin-dir", "DIR", help: "Also search DIR for library plugins (when it starts a host).", repeatable: true),
            .flag("json", help: "When it starts a host: one JSON object per event on stdout."),
            .value("log-file", "FILE", help: "When it starts a host: also write every log line to FILE."),
        ],
        positionals: PositionalSpec("URL", help: "The URL to open.", minCount: 1, maxCount: 1)
    )

    static let helpEpilogue = """

        With a host running: sends {"event": "openURL", "url": URL, "source": "open"} to its control socket and prints
        the reply (one JSON line); for a scene-based manifest ("sceneBased": true), scene.openURLContexts
        to scene "main". Without: runs apphost run --manifest FILE --url URL in this
        process, which stays up as the live host (its launch's invocation is urlScheme).

        Exit status: as apphost send's when a host was running; as apphost run's otherwise.

        """

    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput) -> Int32 {
        let url = arguments.positionals.first ?? ""
        let manifestFile = arguments.value("manifest") ?? ""
        let place: ControlSocketPlace
        let line: [UInt8]
        do {
            let manifest: Manifest
            (place, manifest) = try ControlSocketClient.place(manifestFile: manifestFile)
            // A scene-based app opens the URL in its scene (UIKit: scene(_:openURLContexts:)).
            let object: JSONValue = manifest.sceneBased
                ? .object(["event": .string("scene.openURLContexts"), "scene": .string(Manifest.liveSceneIdentifier),
                           "urlContexts": .array([.object(["url": .string(url)])]), "source": .string("open")])
                : .object(["event": .string("openURL"), "url": .string(url), "source": .string("open")])
            _ = try AnyEventCall(json: object)
            line = Array((object.serialized() + "\n").utf8)
        } catch let error as LiveError {
            errors.singleLine("apphost: \(error)")
            return ExitStatus.usage
        } catch let error as JSONShapeError {
            errors.singleLine("apphost: URL: expected \(error.expected), found \(ErrorLine.value(error.found))")
            return ExitStatus.usage
        } catch {
            errors.singleLine("apphost: \(error)")
            return ExitStatus.usage
        }
        if case .success(let fd) = connectUnix(place.socket) {
            defer { _ = close(fd) }
            let exchange = ControlSocketClient.exchange(fd: fd, lines: line, output: output)
            if let shortfall = exchange.shortfall(socket: place.socket) {
                errors.singleLine("apphost open: \(shortfall)")
                return ExitStatus.failure
            }
            return exchange.failures > 0 || exchange.replies == 0 ? ExitStatus.failure : ExitStatus.success
        }
        // None runs: this process becomes the host.
        var command = ["apphost", "run", "--manifest", manifestFile, "--url", url]
        for directory in arguments.values("plugin-dir") { command += ["--plugin-dir", directory] }
        if arguments.flag("json") { command.append("--json") }
        if let logFile = arguments.value("log-file") { command += ["--log-file", logFile] }
        TextOutput.flushPending()
        let program = "/proc/self/exe"
        var pointers = command.map { strdup($0) }
        pointers.append(nil)
        execv(program, pointers)
        errors.singleLine("apphost: \(program): cannot start the live host: \(String(cString: strerror(errno)))")
        return ExitStatus.usage
    }
}
