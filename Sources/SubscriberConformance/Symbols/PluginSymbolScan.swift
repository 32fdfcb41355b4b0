/// The event-shaped methods of a plugin file: its symbols read from disk, the Swift ones demangled,
/// then matched against the handlers the SDK calls.
enum PluginSymbolScan {
    /// Scans the shared object at `path` for methods named like `expected`'s handlers; throws when the
    /// file's symbol table cannot be read. With no demangler in the runtime, nothing is found.
    ///
    /// `pluginIsLoaded`: the plugin is loaded in this process (as in a conformance child), so the Swift
    /// runtime can name each class's superclass and inherited conformances count. Otherwise nothing of
    /// the plugin is loaded or run, and only the conformances a class declares itself are seen.
    static func scan(path: String, expected: [ExpectedHandler],
                     ignoredModules: Set<String> = EventShapedMethods.defaultIgnoredModules,
                     pluginIsLoaded: Bool = false) throws(ELFSymbolsError) -> EventShapedMethods {
        let symbols = try ELFSymbols.read(path: path)
        // Only the three kinds the matcher reads are demangled: method definitions and deallocating
        // deinits are functions whose mangled names end in "F" and "fD", conformance descriptors are
        // data ending in "Mc".
        let functions = symbols.functions.filter { $0.hasPrefix("$s") && ($0.hasSuffix("F") || $0.hasSuffix("fD")) }
        let conformances = symbols.objects.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mc") }
        var demangled: [String] = [], mangledClasses: [String: String] = [:]
        for name in functions + conformances {
            guard let text = SwiftDemangler.demangle(name) else { continue }
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
        return EventShapedMethods(demangled: demangled, expected: expected, ignoredModules: ignoredModules,
                                  superclass: superclass)
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
