import SubscriberKit
import Synchronization

/// The host's ``SubscriberLogSink``: records what subscribers log and hands each record to an
/// optional handler as it arrives (the CLI prints them). Thread-safe: subscribers log from any thread.
package final class HostLogRecorder: SubscriberLogSink {
    private let records = Mutex<[LogRecord]>([])
    private let requests = Mutex<[HostRequest]>([])
    private let requestHandler: (@Sendable (HostRequest) -> Void)?
    private let retains: Bool
    private let handler: (@Sendable (LogRecord) -> Void)?

    /// A recorder. `handler` sees every record, on the thread that logged it; `retaining: false`
    /// only forwards (nothing to ``drain()``), for long runs that print as they go.
    package init(retaining: Bool = true, handler: (@Sendable (LogRecord) -> Void)? = nil,
                 requestHandler: (@Sendable (HostRequest) -> Void)? = nil) {
        self.retains = retaining
        self.handler = handler
        self.requestHandler = requestHandler
    }

    /// Takes every request kept so far, oldest first, and forgets them.
    package func drainRequests() -> [HostRequest] {
        requests.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
    }

    /// Keeps and forwards a subscriber's request. [any-thread]
    package func request(_ request: SubscriberRequest, from subscriber: String) {
        let made = HostRequest(subscriber: subscriber, request: request)
        if retains { requests.withLock { $0.append(made) } }
        requestHandler?(made)
    }

    /// Takes every record kept so far, oldest first, and forgets them.
    package func drain() -> [LogRecord] {
        records.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
    }

    /// The records kept so far, oldest first, without forgetting them.
    package var recorded: [LogRecord] { records.withLock { $0 } }

    /// Keeps and forwards one record.
    package func record(_ record: LogRecord) {
        if retains { records.withLock { $0.append(record) } }
        // Outside the lock, so that a handler may log again without deadlocking.
        handler?(record)
    }

    /// Records a log line. [any-thread]
    package func log(subscriber: String, level: LogLevel, message: String) {
        record(LogRecord(subscriber: subscriber, kind: .log, level: level, message: message))
    }

    /// Records an analytics event, at level info. [any-thread]
    package func logEvent(subscriber: String, name: String, attributes: JSONObject) {
        record(LogRecord(subscriber: subscriber, kind: .event, level: .info, message: name, attributes: attributes))
    }

    /// Records an error, at level error. [any-thread]
    package func logError(subscriber: String, message: String, attributes: JSONObject) {
        record(LogRecord(subscriber: subscriber, kind: .error, level: .error, message: message,
                         attributes: attributes))
    }
}

extension SubscriberLogSink {
    /// The context a subscriber named `name` is made with: this sink for its logs, the app's info and
    /// its manifest `options`.
    public func context(for name: String, application: Application, options: JSONValue = [:]) -> SubscriberContext {
        SubscriberContext(subscriberName: name, application: application, options: options, sink: self)
    }
}
