#if canImport(Glibc)
import Glibc
#endif
import SubscriberABI
import SubscriberHost

/// The load-time checks reuse the host's loader (``PluginLoader``, load-time checks 1–8) and judge
/// by the number of the loader check that failed, so that the kit and the host never disagree.
enum LoadStage {
    /// The verdict of a load check covering loader checks `covered`: fail when one of them failed,
    /// fail (naming it) when an earlier one did, otherwise `pass()`.
    @MainActor
    static func verdict(_ environment: CheckEnvironment, covers covered: ClosedRange<Int>, expected: String,
                        pass: () -> String) -> Verdict {
        switch environment.load() {
        case .failure(let error) where covered.contains(error.check):
            return .fail(expected: expected, found: error.description)
        case .failure(let error) where error.check < covered.lowerBound:
            return .fail(expected: expected, found: "cannot get this far: load-time check \(error.check) failed first: \(error)")
        default:
            return .pass(expected: expected, found: pass())
        }
    }
}

/// The first descriptor fields, read straight from a plugin the loader already opened (it stays
/// resident), for evidence when a later loader check refused the plugin. Only call it once check 6
/// (struct size, ABI major) passed: then the 1.0 fields are all there.
struct DescriptorPeek {
    var structSize: UInt32
    var abiMajor: UInt32
    var abiMinor: UInt32
    var swiftVersion: String?

    init?(path: String) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD),
              let symbol = dlsym(handle, ADH_ENTRY_SYMBOL),
              let descriptor = unsafeBitCast(symbol, to: adh_plugin_entry_fn.self)()
        else { return nil }
        structSize = descriptor.pointee.struct_size
        abiMajor = descriptor.pointee.abi_major
        abiMinor = descriptor.pointee.abi_minor
        swiftVersion = descriptor.pointee.swift_version.flatMap { String(validatingCString: $0) }
    }
}
