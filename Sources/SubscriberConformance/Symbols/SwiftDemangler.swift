#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Swift symbol names (`$s…`) turned into declarations, by the Swift runtime's own `swift_demangle`
/// (exported by libswiftCore, which every Swift process has loaded). Where the runtime does not export
/// it, nothing is demangled and callers skip the names.
enum SwiftDemangler {
    /// `char *swift_demangle(const char *mangledName, size_t mangledNameLength, char *outputBuffer,
    /// size_t *outputBufferSize, uint32_t flags)`: with no output buffer it returns malloc'ed text.
    private typealias DemangleFunction = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// `swift_demangle`, looked up once in everything loaded (`RTLD_DEFAULT`).
    private static let function: DemangleFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_demangle") else { return nil }
        return unsafeBitCast(symbol, to: DemangleFunction.self)
    }()

    /// Whether the runtime's demangler was found.
    static var isAvailable: Bool { function != nil }

    /// The demangled text of `mangled`; nil when it is not a Swift symbol (`$s` prefix), is over one
    /// name's budget (``DemangleBudget``: longer than its length limit, or its demangled text could be
    /// longer than its text limit — the call cannot be interrupted), the runtime cannot demangle it
    /// (it returns such a name unchanged), or the demangler is unavailable.
    static func demangle(_ mangled: String) -> String? {
        guard let function, mangled.hasPrefix("$s"), mangled.utf8.count <= DemangleBudget.nameLengthLimit,
              DemangleBudget.estimatedTextSize(of: mangled) <= DemangleBudget.textPerName
        else { return nil }
        let text = mangled.withCString { function($0, mangled.utf8.count, nil, nil, 0) }
        guard let text else { return nil }
        defer { free(text) }
        let demangled = String(cString: text)
        // What the runtime cannot demangle it hands back unchanged.
        return demangled == mangled ? nil : demangled
    }
}
