import SubscriberABI

/// A plugin file that passed the load-time checks 1–8: resident (never unloaded), with its
/// descriptor read and validated. One instance per file (device and inode) per process.
///
/// `@unchecked Sendable`: every stored property is immutable, and the descriptor it points to is
/// required by the ABI to stay valid and unchanged for the life of the process.
package final class LoadedPluginImage: @unchecked Sendable, CustomStringConvertible {
    /// The path it was first loaded from (absolute, symlinks kept).
    package let path: String
    /// The canonical path (symlinks resolved) of the file that was loaded.
    package let realPath: String
    /// The `dlopen` handle. Never passed to `dlclose`.
    package let handle: UnsafeMutableRawPointer
    /// The plugin's static descriptor, as returned by `adh_plugin_entry`.
    package let descriptor: UnsafePointer<adh_plugin_descriptor>
    /// The descriptor's `struct_size`: which fields the plugin knows about.
    package let structSize: UInt32
    /// The ABI version the plugin was built against.
    package let abiMajor: UInt32
    /// The ABI minor version the plugin was built against (any minor of the host's major loads).
    package let abiMinor: UInt32
    /// Reverse-DNS identifier.
    package let id: String
    /// Human-readable name.
    package let name: String
    /// The plugin's own version.
    package let version: String
    /// Who ships it; may be empty.
    package let vendor: String
    /// The Swift compiler that built it ("6.3"); empty for a C plugin.
    package let swiftVersion: String
    /// Every subscriber the plugin declares, in its order.
    package let subscriberNames: [String]
    /// How long checks 1–8 took for the load that created this image (dlopen included).
    package let loadDuration: Duration
    /// ``subscriberNames`` for lookups, made once: check 9 runs once per manifest entry, and many
    /// entries may name subscribers of one image.
    private let declared: Set<String>

    init(path: String, realPath: String, handle: UnsafeMutableRawPointer, descriptor: UnsafePointer<adh_plugin_descriptor>,
         fields: DescriptorFields, loadDuration: Duration) {
        self.path = path
        self.realPath = realPath
        self.handle = handle
        self.descriptor = descriptor
        self.structSize = fields.structSize
        self.abiMajor = fields.abiMajor
        self.abiMinor = fields.abiMinor
        self.id = fields.id
        self.name = fields.name
        self.version = fields.version
        self.vendor = fields.vendor
        self.swiftVersion = fields.swiftVersion
        self.subscriberNames = fields.subscriberNames
        self.declared = Set(fields.subscriberNames)
        self.loadDuration = loadDuration
    }

    /// Whether the plugin declares a subscriber named `name`. One lookup.
    package func declares(_ name: String) -> Bool { declared.contains(name) }

    /// Whether this is a plugin written in C (no Swift compiler version).
    package var isCPlugin: Bool { swiftVersion.isEmpty }

    /// `id version (ABI a.b) at path`.
    package var description: String { "\(id) \(version) (ABI \(abiMajor).\(abiMinor)) at \(realPath)" }

    /// Check 9: the subscribers to make from this image: `requested` when it lists some (each must be
    /// declared), else every declared one.
    /// Errors name `path` (default: the path this image was first loaded from). Costs the requested
    /// names, not the declared ones: one lookup each.
    package func subscribers(requested: [String], path: String? = nil) throws(PluginLoadError) -> [String] {
        if requested.isEmpty { return subscriberNames }
        for name in requested where !declared.contains(name) {
            throw .unknownSubscriber(path: path ?? self.path, name: name, declared: subscriberNames)
        }
        return requested
    }
}
