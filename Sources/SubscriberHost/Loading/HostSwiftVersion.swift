/// The Swift compiler that built the host, as "major.minor". A Swift plugin carries the same text
/// in its descriptor's `swift_version`; Swift's ABI across compiler minors is not something two
/// static copies of SubscriberKit should bet on, so the loader requires equality.
public enum HostSwiftVersion {
    /// "6.3" for the 6.3 compiler. Newest first: the first `#if` that holds wins.
    public static let current: String = {
        #if compiler(>=7.0)
        return ">6.9" // a compiler newer than this table: extend it
        #elseif compiler(>=6.9)
        return "6.9"
        #elseif compiler(>=6.8)
        return "6.8"
        #elseif compiler(>=6.7)
        return "6.7"
        #elseif compiler(>=6.6)
        return "6.6"
        #elseif compiler(>=6.5)
        return "6.5"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }()
}
