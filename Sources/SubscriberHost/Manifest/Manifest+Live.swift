import SubscriberKit
import SubscriberEventModel

// The manifest's keys for the live host (`apphost run`, docs/live-host.md), read apart from the
// dispatch keys: kept in this one place.

extension Manifest {
    /// The scene `apphost run` connects at launch in a scene-based app (``sceneBased``).
    public static let liveSceneIdentifier = "main"

    /// The bounds of `terminationDeadline`, in milliseconds: up to ten minutes (systemd's default
    /// stop timeout is 90 s).
    public static let terminationDeadlineRange = 1...600_000
}

enum LiveManifestKeys {
    /// `terminationDeadline`: how long `apphost run`'s way out (resign, background, terminate) may
    /// take, in milliseconds; nil when the manifest does not say (the flag's or the default, 5000).
    static func terminationDeadline(_ root: inout JSONObjectReader) throws(JSONShapeError) -> Int? {
        guard let value = root.value("terminationDeadline") else { return nil }
        let range = Manifest.terminationDeadlineRange
        guard let milliseconds = value.intValue, range.contains(milliseconds) else {
            throw root.mismatch("terminationDeadline",
                                "a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)", value)
        }
        return milliseconds
    }

    /// `sceneBased`: whether the app is scene-based, as an Info.plist with a scene manifest makes it
    /// (`apphost run` connects scene "main" at launch with the launch's options, and moves it);
    /// nil when the manifest does not say (false).
    static func sceneBased(_ root: inout JSONObjectReader) throws(JSONShapeError) -> Bool? {
        try root.bool("sceneBased")
    }
}
