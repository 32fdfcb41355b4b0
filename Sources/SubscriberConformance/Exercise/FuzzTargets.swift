import SubscriberABI
import SubscriberKit
import SubscriberEventModel

/// The raw vtable entries the fuzz check feeds: every event that takes input. Each event's argument
/// shape draws the hostile C arguments (``ArgumentShape/fuzzed(_:spec:serial:)``), passed to the entry
/// as its C signature takes them — directly, not through the host, which only ever sends well-formed
/// values: invalid UTF-8 must reach the plugin as it is.
enum FuzzTargets {
    /// Whether `event` takes input to fuzz.
    static func takesInput(_ event: LifecycleEvent) -> Bool { event.row.argumentShape != "NoArguments" }
}

extension FuzzValues: FuzzDraw {}
