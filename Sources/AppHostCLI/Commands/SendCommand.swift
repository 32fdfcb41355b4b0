#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit
import SubscriberEventModel

/// `apphost send --manifest FILE LINE|-`: sends event-script lines to the live host running for the
/// manifest's bundle identifier and prints its replies, one JSON line each.
enum SendCommand {
    static let spec = CommandSpec(
        name: "send",
        summary: "Send event-script lines to the running live host (apphost run) and print its replies.",
        options: [
            .value("manifest", "FILE", short: "m", help: "The manifest of the running host (its bundle identifier names the socket).", required: true),
            .value("reload", "NAME", help: "Instead of a line: restart the isolated plugin NAME (its library or file name,\nor one of its subscribers' names) from its file as it is now."),
        ],
        positionals: PositionalSpec("LINE|-", help: "One event-script line, or '-': standard input, one line per event.", minCount: 0, maxCount: 1)
    )

    static let helpEpilogue = """

        Each line is one event-script object, {"event": "<wire name>", …arguments}; each reply is one
        JSON line: the event's outcome as apphost --json writes it, or {"error": "…"} for a bad line.
        --reload NAME restarts an isolated plugin's child ("isolation": "process") from its file: the
        load-time checks and its sha256 pin again, its subscribers made anew; the reply is
        {"reloaded": [files], "subscribers": [names]} or the error. A plugin loaded in process cannot
        be reloaded (a Swift image is never unloaded).

        Exit status:
          0  every reply is an outcome that was delivered
          1  a reply is an error or a refusal (a state violation, a bad line, too many connections),
             or the host closed before answering every line sent
          2  usage error, bad manifest, or no host running for the manifest's bundle identifier

        """

    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput) -> Int32 {
        let reload = arguments.value("reload")
        guard (reload == nil) != arguments.positionals.isEmpty else {
            errors.singleLine(reload == nil
                ? "apphost send: expected one event-script line (or '-', or --reload NAME), found none"
                : "apphost send: --reload NAME: expected no event-script line beside it, found \(ErrorLine.value(arguments.positionals[0]))")
            return ExitStatus.usage
        }
        let line = reload.map { JSONValue.object(["reload": .string($0)]).serialized() } ?? arguments.positionals.first ?? "-"
        let place: ControlSocketPlace
        do {
            (place, _) = try ControlSocketClient.place(manifestFile: arguments.value("manifest") ?? "")
        } catch {
            errors.singleLine("apphost: \(error)")
            return ExitStatus.usage
        }
        let fd: Int32
        switch connectUnix(place.socket) {
        case .success(let connected): fd = connected
        case .failure(let error):
            errors.singleLine("apphost: \(place.socket): expected a running live host (apphost run), found none (\(error))")
            return ExitStatus.usage
        }
        defer { _ = close(fd) }
        let exchange = ControlSocketClient.exchange(fd: fd, lines: line == "-" ? nil : Array((line + "\n").utf8), output: output)
        if let shortfall = exchange.shortfall(socket: place.socket) {
            errors.singleLine("apphost send: \(shortfall)")
            return ExitStatus.failure
        }
        return exchange.failures > 0 ? ExitStatus.failure : ExitStatus.success
    }
}
