import SubscriberDelivery
import SubscriberKit

/// The Swift compiler that built the host, as "major.minor". A Swift plugin carries the same text
/// in its descriptor's `swift_version`; Swift's ABI across compiler minors is not something two
/// static copies of SubscriberKit should bet on, so the loader requires equality.
package enum HostSwiftVersion {
    /// "6.3" for the 6.3 compiler: the host's own copy of SubscriberKit, compiled with the host,
    /// answers the same question a plugin's copy answered when the plugin was built.
    package static var current: String { SubscriberPlugin.swiftCompilerVersion }
}
