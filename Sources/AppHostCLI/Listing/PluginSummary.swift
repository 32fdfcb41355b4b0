import SubscriberHost
import SubscriberKit

/// What output says about one loaded plugin: the manifest entry it came from and its descriptor.
/// A plain value, so renderers can be tested without loading anything.
package struct PluginSummary: Sendable, Hashable {
    /// Index of the entry in the manifest's `plugins`.
    package var index: Int
    /// The entry's source as written: `library "DeepLinkRouter"` or `path "plugins/libX.so"`.
    package var source: String
    /// The descriptor's human-readable name.
    package var name: String
    /// The descriptor's reverse-DNS id.
    package var id: String
    /// The plugin's own version.
    package var version: String
    /// Who ships it; may be empty.
    package var vendor: String
    /// The ABI it was built for, "major.minor".
    package var abi: String
    /// The Swift compiler that built it ("6.3"); empty for a C plugin.
    package var swiftVersion: String
    /// The file it was loaded from (absolute).
    package var path: String
    /// The subscribers made from it, in order.
    package var subscribers: [String]
    /// Every subscriber it declares.
    package var declaredSubscribers: [String]
    /// How long its load-time checks took, dlopen included (nil when not measured).
    package var loadTime: Duration?
    /// How the manifest entry hosts it: in process, or in a child (and its group).
    package var isolation = PluginIsolation()

    /// A summary with the given fields.
    package init(index: Int, source: String, name: String, id: String, version: String, vendor: String = "",
                abi: String, swiftVersion: String, path: String, subscribers: [String],
                declaredSubscribers: [String]? = nil, loadTime: Duration? = nil) {
        self.index = index
        self.source = source
        self.name = name
        self.id = id
        self.version = version
        self.vendor = vendor
        self.abi = abi
        self.swiftVersion = swiftVersion
        self.path = path
        self.subscribers = subscribers
        self.declaredSubscribers = declaredSubscribers ?? subscribers
        self.loadTime = loadTime
    }

    /// The summary of `image`, loaded for manifest entry `entry` from `path`, making `subscribers`.
    package init(entry: ManifestPlugin, path: String, image: LoadedPluginImage, subscribers: [String]) {
        self.init(index: entry.index, source: entry.source.description, name: image.name, id: image.id,
                  version: image.version, vendor: image.vendor, abi: "\(image.abiMajor).\(image.abiMinor)",
                  swiftVersion: image.swiftVersion, path: path, subscribers: subscribers,
                  declaredSubscribers: image.subscriberNames, loadTime: image.loadDuration)
        isolation = entry.isolation
    }

    /// The summary of a plugin a ``PluginHost`` loaded.
    package init(_ plugin: PluginSet.Plugin) {
        self.init(entry: plugin.entry, path: plugin.path, image: plugin.image, subscribers: plugin.subscriberNames)
    }

    /// `Swift 6.3` or `C`.
    package var language: String { swiftVersion.isEmpty ? "C" : "Swift \(swiftVersion)" }

    /// As JSON, for `list --json`.
    var json: JSONObject {
        [
            "name": .string(name), "id": .string(id), "version": .string(version), "vendor": .string(vendor),
            "abi": .string(abi), "swiftVersion": swiftVersion.isEmpty ? .null : .string(swiftVersion),
            "path": .string(path), "subscribers": .array(subscribers.map { .string($0) }),
            "declaredSubscribers": .array(declaredSubscribers.map { .string($0) }),
            "loadMs": loadTime.map { .number(($0.milliseconds * 1e3).rounded() / 1e3) } ?? .null,
        ]
    }
}
