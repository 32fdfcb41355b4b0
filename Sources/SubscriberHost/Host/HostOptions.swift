import SubscriberDelivery
import SubscriberKit

/// How a ``PluginHost`` loads a manifest: the command line's knobs, as a value.
public struct HostOptions: Sendable {
    /// Folders searched for `library` plugins after the manifest's `pluginSearchPaths` (`--plugin-dir`).
    public var extraSearchDirectories: [String]
    /// Turn the loader's path check off (`--allow-writable`): accept an unsafe plugin file or folder on
    /// its way, writable by group or others or owned by another user (docs/manifest.md, "Load-time checks").
    public var allowWritable: Bool
    /// One deadline for every completion event, replacing the manifest's (`--deadline MS`).
    public var deadlineOverride: Duration?
    /// Receives every log line, event and error a subscriber writes, from any thread, as it happens.
    public var logHandler: (@Sendable (LogRecord) -> Void)?
    /// Receives every request a subscriber makes, from any thread, as it happens (outcomes carry
    /// them too).
    public var requestHandler: (@Sendable (HostRequest) -> Void)?
    /// Measure each subscriber's time (``SubscriberAnswer/duration``), at a clock read per
    /// subscriber per event.
    public var measuresSubscribers: Bool
    /// Where deadlines are measured and armed: the system's monotonic clock by default; a
    /// ``ManualHostClock`` in a test, so that a deadline passes exactly when the test advances it.
    /// Durations shown for ``measuresSubscribers`` always read the system's monotonic clock.
    public var clock: any HostClock
    /// The scan cache `apphost list` fills: a plugin file whose inspection there crashed or hung is
    /// refused at load until the file changes. nil (the default) reads no cache; `apphost` passes
    /// ``ScanCache/standard(environment:)``.
    public var scanCache: ScanCache?

    /// Options with the given values; the defaults load the manifest as written.
    public init(extraSearchDirectories: [String] = [], allowWritable: Bool = false,
                deadlineOverride: Duration? = nil, logHandler: (@Sendable (LogRecord) -> Void)? = nil,
                requestHandler: (@Sendable (HostRequest) -> Void)? = nil, measuresSubscribers: Bool = false,
                clock: any HostClock = MonotonicHostClock(), scanCache: ScanCache? = nil) {
        self.extraSearchDirectories = extraSearchDirectories
        self.allowWritable = allowWritable
        self.deadlineOverride = deadlineOverride
        self.logHandler = logHandler
        self.requestHandler = requestHandler
        self.measuresSubscribers = measuresSubscribers
        self.clock = clock
        self.scanCache = scanCache
    }
}
