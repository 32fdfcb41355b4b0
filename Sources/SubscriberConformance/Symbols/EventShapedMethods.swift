/// The methods of a plugin's classes that are named like event handlers, and the protocols its types
/// adopt, both read from demangled symbol names — a pure function of those names, so that it can be
/// tested with text alone.
///
/// A Swift subscriber receives an event only when its type adopts the event's protocol and its method
/// satisfies the requirement exactly. A method that merely looks like a handler compiles and is never
/// called; ``findings()`` names each one: a *near miss* (the selector of a handler with another
/// signature, e.g. `-> Bool` where the requirement says `-> Bool?`) or *not adopted* (the exact method on
/// a type without the protocol).
///
/// Symbols show the conformances a type declares, not those it inherits: a subclass of a class that
/// adopts a protocol has no conformance descriptor of its own, and symbol names do not say what a class
/// inherits from. A caller that can tell (``PluginSymbolScan`` asks the Swift runtime, in a process
/// that has the plugin loaded) passes `superclass`, and the superclasses' conformances count too.
struct EventShapedMethods: Sendable {
    /// Types of these modules are skipped: SubscriberKit is linked into every plugin, and its own types
    /// are the SDK's business, not the plugin author's.
    static let defaultIgnoredModules: Set<String> = ["SubscriberKit"]

    /// The event-shaped methods, in symbol order, each once.
    let methods: [FoundHandlerMethod]
    /// The handlers looked for, by selector.
    private let expectedBySelector: [String: [ExpectedHandler]]
    /// Unqualified protocol names by type (module-qualified, generic arguments dropped).
    private let conformancesByType: [String: Set<String>]
    /// The module-qualified superclass of a module-qualified class, where known.
    private let superclass: @Sendable (String) -> String?
    /// How many superclasses up a conformance is looked for: bounds a lookup that cycles.
    private static let inheritanceDepthLimit = 64

    /// Scans `symbols` (demangled names, one each; anything else in the list is skipped) for instance
    /// methods of classes whose selector is one of `expected`'s, on types outside `ignoredModules`.
    /// `superclass` names a class's superclass (both module-qualified) when the caller knows it.
    init(demangled symbols: [String], expected: [ExpectedHandler],
         ignoredModules: Set<String> = Self.defaultIgnoredModules,
         superclass: @escaping @Sendable (String) -> String? = { _ in nil }) {
        var classes: Set<String> = [], conformances: [String: Set<String>] = [:], candidates: [DemangledMethod] = []
        let expectedBySelector = Dictionary(grouping: expected, by: \.selector)
        for text in symbols {
            switch DemangledSymbol(text) {
            case .classType(let typeName): classes.insert(typeName)
            case .conformance(let typeName, let protocolName):
                conformances[typeName, default: []].insert(Self.lastComponent(of: protocolName))
            case .method(let method) where expectedBySelector[method.selector] != nil: candidates.append(method)
            case .method, nil: break
            }
        }
        var seen: Set<String> = []
        var methods: [FoundHandlerMethod] = []
        for method in candidates where classes.contains(method.typeName) && seen.insert(method.text).inserted {
            let module = method.typeName.prefix { $0 != "." }
            guard !ignoredModules.contains(String(module)), let handlers = expectedBySelector[method.selector] else { continue }
            // Several events could share a selector: the one the method satisfies, else the first.
            let handler = handlers.first { Self.satisfies(method, $0) } ?? handlers[0]
            methods.append(FoundHandlerMethod(typeName: method.typeName, event: handler.event, selector: method.selector,
                                              demangledSignature: method.text,
                                              matchesExpected: Self.satisfies(method, handler),
                                              parameterTypes: method.parameterTypes, returnType: method.returnType,
                                              effects: method.effects))
        }
        self.methods = methods
        self.expectedBySelector = expectedBySelector
        self.conformancesByType = conformances
        self.superclass = superclass
    }

    /// The protocols (unqualified names) the symbols show `typeName` adopting, itself or through its
    /// superclasses (when `superclass` knows them). `typeName` is the module-qualified name
    /// ("Greeter.Greeter"), or a name without its module ("Greeter"), which gathers the types of that
    /// name in every module.
    func conformances(ofType typeName: String) -> Set<String> {
        let names = Set([typeName]).union(conformancesByType.keys.filter { $0.hasSuffix("." + typeName) })
        var result: Set<String> = []
        for name in names {
            var current: String? = name, visited: Set<String> = []
            while let type = current, visited.count < Self.inheritanceDepthLimit, visited.insert(type).inserted {
                result.formUnion(conformancesByType[type] ?? [])
                current = superclass(type)
            }
        }
        return result
    }

    /// Every found method that is never called, in symbol order: near misses, and exact handlers on
    /// types that do not adopt the event's protocol.
    func findings() -> [UnreachableHandler] {
        methods.compactMap { method in
            guard let handler = expectedBySelector[method.selector]?.first(where: { $0.event == method.event }) else {
                return nil
            }
            if !method.matchesExpected { return UnreachableHandler(method: method, expected: handler, reason: .nearMiss) }
            if !conformances(ofType: method.typeName).contains(Self.lastComponent(of: handler.protocolName)) {
                return UnreachableHandler(method: method, expected: handler, reason: .notAdopted)
            }
            return nil
        }
    }

    /// Whether `method` has `handler`'s parameter types, effects and result type.
    private static func satisfies(_ method: DemangledMethod, _ handler: ExpectedHandler) -> Bool {
        method.parameterTypes.count == handler.parameterTypes.count
            && zip(method.parameterTypes, handler.parameterTypes).allSatisfy(SwiftTypeText.sameType)
            && SwiftTypeText.sameType(method.effects, handler.effects)
            && SwiftTypeText.sameType(method.returnType, handler.returnType)
    }

    private static func lastComponent(of name: String) -> String {
        String(name.split(separator: ".").last ?? Substring(name))
    }
}
