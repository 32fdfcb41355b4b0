/// The methods of a plugin's subscriber classes that are named like event handlers, and the protocols
/// its types adopt, both read from demangled symbol names — a pure function of those names (and of
/// the superclass a caller can name), so that it can be tested with text alone.
///
/// A Swift subscriber receives an event only when the class that declares the subscriber protocol
/// (`AppDelegateSubscriber`, which `InstantiableSubscriber` and every event protocol refine) adopts
/// the event's protocol, and the method satisfies the requirement exactly: the compiler records a
/// subscriber's events where that conformance is declared. Anything else compiles and is silently
/// never called; ``findings()`` names each one — a *near miss* (the selector of a handler with another
/// signature, e.g. `-> Bool` where the requirement says `-> Bool?`), an exact method on a subscriber
/// that does not adopt the protocol, or one on a subclass whose events were fixed at its superclass.
/// Classes that are no subscriber (helpers with UIKit-looking methods) are not judged.
///
/// Symbols show the conformances a type declares, not those it inherits: a subclass of a class that
/// adopts a protocol has no conformance descriptor of its own, and symbol names do not say what a class
/// inherits from. A caller that can tell (``PluginSymbolScan`` asks the Swift runtime, in a process
/// that has the plugin loaded) passes `superclass`; without it, a class is judged only when it
/// declares the subscriber protocol itself.
struct EventShapedMethods: Sendable {
    /// Types of these modules are skipped: SubscriberKit and the modules under it are linked into every
    /// plugin, and their own types are the SDK's business, not the plugin author's.
    static let defaultIgnoredModules: Set<String> = ["SubscriberKit", "SubscriberEventModel", "SubscriberValues"]
    /// The protocol whose conformance makes a class a subscriber and fixes its events (unqualified).
    static let subscriberProtocol = "AppDelegateSubscriber"

    /// The event-shaped methods of classes, in symbol order, each once.
    let methods: [FoundHandlerMethod]
    /// Names the scan did not read (set by ``PluginSymbolScan``): what the findings cannot cover.
    var unread: [DemangleBudget.Unread] = []
    /// The handlers looked for, by selector.
    private let expectedBySelector: [String: [ExpectedHandler]]
    /// The protocols looked for, by unqualified name.
    private let expectedByProtocol: [String: ExpectedHandler]
    /// Unqualified protocol names each type declares itself (module-qualified type, generic arguments dropped).
    private let conformancesByType: [String: Set<String>]
    /// Every class (module-qualified) with a deallocating deinit among the symbols.
    private let classes: Set<String>
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
        self.expectedByProtocol = Dictionary(expected.map { (Self.lastComponent(of: $0.protocolName), $0) }) { first, _ in first }
        self.conformancesByType = conformances
        self.classes = classes
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
            for type in lineage(of: name) { result.formUnion(conformancesByType[type] ?? []) }
        }
        return result
    }

    /// `typeName`, then its superclasses as far as known (a cycle or a very deep chain ends it).
    func lineage(of typeName: String) -> [String] {
        var chain: [String] = []
        var current: String? = typeName
        while let type = current, chain.count < Self.inheritanceDepthLimit, !chain.contains(type) {
            chain.append(type)
            current = superclass(type)
        }
        return chain
    }

    /// The class in `typeName`'s lineage that declares the subscriber protocol — where the compiler
    /// fixed the events of `typeName`'s instances; nil when `typeName` is no subscriber (as far as the
    /// symbols and the known superclasses tell).
    func eventRoot(of typeName: String) -> String? {
        lineage(of: typeName).first { conformancesByType[$0]?.contains(Self.subscriberProtocol) == true }
    }

    /// Every found method of a subscriber class that is never called, in symbol order: near misses,
    /// exact handlers whose class does not adopt the event's protocol, and exact handlers of a
    /// subclass whose events were fixed at a superclass that does not adopt it. Each once.
    func findings() -> [UnreachableHandler] {
        methods.compactMap { method in
            guard let root = eventRoot(of: method.typeName),
                  let handler = expectedBySelector[method.selector]?.first(where: { $0.event == method.event })
            else { return nil }
            let adoptedAtRoot = conformancesByType[root]?.contains(Self.lastComponent(of: handler.protocolName)) == true
            if !method.matchesExpected {
                return UnreachableHandler(method: method, expected: handler, reason: .nearMiss(root: root, adopted: adoptedAtRoot))
            }
            if adoptedAtRoot { return nil }
            if root == method.typeName { return UnreachableHandler(method: method, expected: handler, reason: .notAdopted) }
            let ownAdoption = conformancesByType[method.typeName]?.contains(Self.lastComponent(of: handler.protocolName)) == true
            return UnreachableHandler(method: method, expected: handler,
                                      reason: .fixedAtSuperclass(root: root, typeAdopts: ownAdoption))
        }
    }

    /// The event protocols a subscriber class adopts whose handler is not among the symbols, on the
    /// class or its known superclasses: the optimiser inlined or removed it (a release build), so the
    /// symbols do not show everything this scan looks for. Sorted by type, then event.
    func handlersNotInSymbols() -> [(typeName: String, expected: ExpectedHandler)] {
        var missing: [(typeName: String, expected: ExpectedHandler)] = []
        for (typeName, protocols) in conformancesByType.sorted(by: { $0.key < $1.key })
        where classes.contains(typeName) && eventRoot(of: typeName) != nil {
            let module = typeName.prefix { $0 != "." }
            guard !Self.defaultIgnoredModules.contains(String(module)) else { continue }
            let lineage = Set(lineage(of: typeName))
            for name in protocols.sorted() {
                guard let handler = expectedByProtocol[name] else { continue }
                let present = methods.contains { lineage.contains($0.typeName) && $0.event == handler.event && $0.matchesExpected }
                if !present { missing.append((typeName, handler)) }
            }
        }
        return missing
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
