/// What one line of `swift_demangle` output says, for the few kinds the event-handler scan needs:
///
/// - a plain method definition, `Greeter.Greeter.application(_: SubscriberKit.Application, open:
///   FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool?` — the line starts
///   with the type's path. Everything derived from a method starts with words instead ("protocol
///   witness for", "dispatch thunk of", "method descriptor for", "closure #1 … in", "generic
///   specialization <…> of", "merged", "static", "@objc", …) or names an accessor without a parameter
///   list (`Greeter.Greeter.name.getter : Swift.String`), so it is not one;
/// - a protocol conformance descriptor, `protocol conformance descriptor for Greeter.Greeter :
///   SubscriberKit.OpenURLSubscriber in Greeter` (mangled suffix `Mc`);
/// - a class's deallocating deinit, `Greeter.Greeter.__deallocating_deinit` (suffix `fD`): only classes
///   and actors have one, which tells their methods from those of structs and enums.
enum DemangledSymbol: Sendable, Hashable {
    /// A method defined on `typeName` (static methods and accessors are never parsed as one).
    case method(DemangledMethod)
    /// `typeName` (generic arguments dropped) adopts `protocolName` (module-qualified).
    case conformance(typeName: String, protocolName: String)
    /// `typeName` is a class (or an actor).
    case classType(typeName: String)

    private static let conformancePrefix = "protocol conformance descriptor for "
    private static let deinitSuffix = ".__deallocating_deinit"

    /// The kind of `text`, or nil when it is none of the three.
    init?(_ text: String) {
        if text.hasPrefix(Self.conformancePrefix) {
            var scanner = DemangledScanner(text.dropFirst(Self.conformancePrefix.count))
            // "<type> : <protocol> in <module>": the separators sit outside any brackets.
            guard let type = scanner.scanUntilTopLevel(" : ") else { return nil }
            scanner.skip(" : ")
            guard let proto = scanner.scanUntilTopLevel(" in "), !proto.isEmpty else { return nil }
            self = .conformance(typeName: SwiftTypeText.droppingGenericArguments(type), protocolName: proto)
            return
        }
        var scanner = DemangledScanner(Substring(text))
        if scanner.skip("(extension in ") {
            // "(extension in Module):Type.method(…)": the method belongs to Type all the same.
            guard scanner.scanUntilTopLevel("):") != nil else { return nil }
            scanner.skip("):")
        }
        guard let path = scanner.scanPath(), path.count >= 2 else { return nil }
        let typeName = path.dropLast().joined(separator: ".")
        if scanner.isAtEnd {
            guard path.last == String(Self.deinitSuffix.dropFirst()), path.count >= 3 else { return nil }
            self = .classType(typeName: typeName)
            return
        }
        guard path.count >= 3, let method = DemangledMethod(typeName: typeName, baseName: path[path.count - 1],
                                                            rest: &scanner, text: text)
        else { return nil }
        self = .method(method)
    }
}

/// A plain method definition, split into its parts.
struct DemangledMethod: Sendable, Hashable {
    /// The type the method is defined on, e.g. "Greeter.Greeter" or "M.(Hidden in _A41C…)".
    let typeName: String
    /// The method's name without arguments, e.g. "application".
    let baseName: String
    /// Argument labels, "_" where there is none.
    let labels: [String]
    /// Parameter types as printed.
    let parameterTypes: [String]
    /// "async", "throws", "async throws", "throws(E)" … or "".
    let effects: String
    /// The result type as printed ("()" for none).
    let returnType: String
    /// The whole demangled line.
    let text: String

    /// The selector: "application(_:open:options:)", "applicationDidBecomeActive(_:)", "foo()".
    var selector: String { baseName + "(" + labels.map { $0 + ":" }.joined() + ")" }

    /// Parses "(<parameters>)[ effects] -> <result>" at `rest`; nil for anything else (a generic
    /// method's "<A>", a "where" clause, a trailing " in …").
    fileprivate init?(typeName: String, baseName: String, rest: inout DemangledScanner, text: String) {
        guard let parameters = rest.scanBalanced() else { return nil }
        guard let arrow = rest.scanUntilTopLevel(" -> "), rest.skip(" -> ") else { return nil }
        let effects = arrow.trimmingSpaces
        guard effects.split(separator: " ").allSatisfy({ $0 == "async" || $0 == "throws" || $0.hasPrefix("throws(") })
        else { return nil }
        let result = String(rest.remaining)
        // A generic method's requirements follow its result: " where A: …". No event handler is generic.
        var resultScanner = DemangledScanner(Substring(result))
        guard !result.isEmpty, resultScanner.scanUntilTopLevel(" where ") == result else { return nil }
        var labels: [String] = [], types: [String] = []
        for element in DemangledScanner.splitTopLevel(parameters, separator: ", ") where !element.isEmpty {
            let (label, type) = Self.splitLabel(element)
            labels.append(label)
            types.append(type)
        }
        self.typeName = typeName
        self.baseName = baseName
        self.labels = labels
        self.parameterTypes = types
        self.effects = effects
        self.returnType = result
        self.text = text
    }

    /// "open: FoundationEssentials.URL" → ("open", "FoundationEssentials.URL"); an element without
    /// "label: " (the demangler omits labels when a method has none) → ("_", element).
    private static func splitLabel(_ element: String) -> (String, String) {
        guard let colon = element.range(of: ": ") else { return ("_", element) }
        let label = element[..<colon.lowerBound]
        guard let first = label.first, first == "_" || first.isLetter,
              label.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
        else { return ("_", element) }
        return (String(label), String(element[colon.upperBound...]))
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
