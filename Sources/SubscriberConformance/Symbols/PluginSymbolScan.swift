/// The event-shaped methods of a plugin file: its symbols read from disk, the Swift ones demangled,
/// then matched against the handlers the SDK calls. Nothing of the plugin is loaded or run.
enum PluginSymbolScan {
    /// Scans the shared object at `path` for methods named like `expected`'s handlers; throws when the
    /// file's symbol table cannot be read. With no demangler in the runtime, nothing is found.
    static func scan(path: String, expected: [ExpectedHandler],
                     ignoredModules: Set<String> = EventShapedMethods.defaultIgnoredModules)
        throws(ELFSymbolsError) -> EventShapedMethods {
        let symbols = try ELFSymbols.read(path: path)
        // Only the three kinds the matcher reads are demangled: method definitions and deinits are
        // functions whose mangled names end in "F" and "fD", conformance descriptors are data ending in "Mc".
        let wanted = symbols.functions.filter { $0.hasPrefix("$s") && ($0.hasSuffix("F") || $0.hasSuffix("fD")) }
            + symbols.objects.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mc") }
        return EventShapedMethods(demangled: wanted.compactMap(SwiftDemangler.demangle), expected: expected,
                                  ignoredModules: ignoredModules)
    }
}
