import Synchronization
@testable import SubscriberHost

/// Every record a host's subscribers logged, from the load on, whatever drained the host's own log
/// since (each outcome of `PluginHost.dispatch` takes the records logged before it).
final class LogCollector: Sendable {
    private let records = Mutex<[LogRecord]>([])

    /// The records so far, oldest first.
    var all: [LogRecord] { records.withLock { $0 } }

    /// Host options that find the built plugins and send every record here too.
    var hostOptions: HostOptions {
        var options = HostOptions(extraSearchDirectories: [BuiltPlugins.directory])
        options.logHandler = { record in self.records.withLock { $0.append(record) } }
        return options
    }
}

/// A host over a manifest written with `text`, every record collected; the manifest's folder is
/// removed once it is read.
@MainActor
func loadHost(manifest text: String) throws -> (PluginHost, LogCollector) {
    let directory = try TestDirectory()
    defer { directory.remove() }
    let logs = LogCollector()
    return (try PluginHost(manifestAt: try directory.write("m.json", text), options: logs.hostOptions), logs)
}
