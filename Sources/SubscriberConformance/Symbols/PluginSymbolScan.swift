/// The event-shaped methods of a plugin file: its symbols read from disk, the Swift ones demangled
/// within a budget (``DemangleBudget``), then matched against the handlers the SDK calls.
enum PluginSymbolScan {
    /// The longest demangled text parsed: a handler's declaration is a few hundred bytes, and the
    /// type comparisons are meant for texts of that size. Longer ones are reported as not read.
    static let parsedTextLimit = 16 << 10

    /// Scans the shared object at `path` for methods named like `expected`'s handlers; throws when the
    /// file's symbol table cannot be read. With no demangler in the runtime, nothing is found.
    ///
    /// `pluginIsLoaded`: the plugin is loaded in this process (as in a conformance child), so the Swift
    /// runtime can name each class's superclass and inherited conformances count. Otherwise nothing of
    /// the plugin is loaded or run, and only the conformances a class declares itself are seen.
    static func scan(path: String, expected: [ExpectedHandler],
                     ignoredModules: Set<String> = EventShapedMethods.defaultIgnoredModules,
                     pluginIsLoaded: Bool = false) throws(ELFSymbolsError) -> EventShapedMethods {
        scan(try ELFSymbols.read(path: path), expected: expected, ignoredModules: ignoredModules,
             pluginIsLoaded: pluginIsLoaded)
    }

    /// Scans symbols already read (see ``scan(path:expected:ignoredModules:pluginIsLoaded:)``).
    static func scan(_ symbols: ELFSymbols, expected: [ExpectedHandler],
                     ignoredModules: Set<String> = EventShapedMethods.defaultIgnoredModules,
                     pluginIsLoaded: Bool = false) -> EventShapedMethods {
        // Only the three kinds the matcher reads are demangled: method definitions and deallocating
        // deinits are functions whose mangled names end in "F" and "fD", conformance descriptors are
        // data ending in "Mc".
        let functions = symbols.functions.filter { $0.hasPrefix("$s") && ($0.hasSuffix("F") || $0.hasSuffix("fD")) }
        let conformances = symbols.objects.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mc") }
        var budget = DemangleBudget()
        var demangled: [String] = [], mangledClasses: [String: String] = [:], tooLong: [DemangleBudget.Unread] = []
        for name in functions + conformances {
            guard let text = budget.demangle(name) else { continue }
            guard text.utf8.count <= parsedTextLimit else {
                tooLong.append(DemangleBudget.Unread(name: name, reason: .textTooLong(text.utf8.count)))
                continue
            }
            demangled.append(text)
            if name.hasSuffix("fD"), case .classType(let typeName) = DemangledSymbol(text) {
                // "$s7GreeterAACfD" → "7GreeterAAC": the class's mangled name, which the runtime looks up.
                mangledClasses[typeName] = String(name.dropFirst(2).dropLast(2))
            }
        }
        let classes = mangledClasses, askRuntime = pluginIsLoaded
        let superclass: @Sendable (String) -> String? = { typeName in
            guard askRuntime, let mangled = classes[typeName] else { return nil }
            return runtimeSuperclass(ofMangledClass: mangled)
        }
        var scan = EventShapedMethods(demangled: demangled, expected: expected, ignoredModules: ignoredModules,
                                      superclass: superclass)
        scan.unread = budget.unread + tooLong
        return scan
    }

    /// The module-qualified name of the superclass of the class whose mangled name is `mangled`, by the
    /// Swift runtime (which knows every loaded image's types); nil for a root class or an unknown name.
    static func runtimeSuperclass(ofMangledClass mangled: String) -> String? {
        guard let type = _typeByName(mangled), let someClass = type as? AnyClass,
              let parent = _getSuperclass(someClass)
        else { return nil }
        // "Plug.Base<Swift.Int>" → "Plug.Base", as conformances are keyed.
        return SwiftTypeText.droppingGenericArguments(_typeName(parent, qualified: true))
    }
}
