/// Swift type names as text, compared leniently: the demangler qualifies every type with the module it
/// lives in, and that module is not always the one a reader expects (`URL` is
/// `FoundationEssentials.URL` in a symbol while the source says `Foundation.URL`), so comparisons use
/// each name's last component. Messages keep the full text.
enum SwiftTypeText {
    /// Words that change how an argument is passed, not its type: a method taking `__owned Application`
    /// still satisfies a requirement taking `Application`.
    private static let ownershipWords: Set<String> = ["__owned", "__shared", "consuming", "borrowing"]

    /// `text` with every dotted name cut to its last component, ownership words dropped, `Void` spelled
    /// `()` and `Optional<X>` spelled `X?`: "Swift.Optional<Swift.Bool>" and "Swift.Bool?" both give
    /// "Bool?", "FoundationEssentials.URL" and "Foundation.URL" both "URL".
    static func lenient(_ text: String) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard isIdentifierStart(text[index]) else {
                output.append(text[index])
                index = text.index(after: index)
                continue
            }
            // A dotted name: keep its last identifier.
            var last = Substring()
            while true {
                let end = text[index...].firstIndex { !isIdentifierCharacter($0) } ?? text.endIndex
                last = text[index..<end]
                index = end
                guard index < text.endIndex, text[index] == ".",
                      let next = text[text.index(after: index)...].first, isIdentifierStart(next)
                else { break }
                index = text.index(after: index)
            }
            if ownershipWords.contains(String(last)), index < text.endIndex, text[index] == " " {
                index = text.index(after: index)
            } else {
                output += last == "Void" ? "()" : last
            }
        }
        return sugaringOptionals(output)
    }

    /// "Optional<X>" → "X?" (or "(X)?" when X is a function or a composition), innermost last.
    private static func sugaringOptionals(_ text: String) -> String {
        var text = text
        // Each pass removes one "Optional<", so the loop ends; type texts are short (a symbol is at most
        // a few KiB), so the passes cost little.
        while let start = optionalStart(in: text) {
            var scanner = DemangledScanner(text[text.index(start, offsetBy: "Optional".count)...])
            guard scanner.skip("<"), let inner = scanner.scanUntilTopLevel(">"), scanner.skip(">") else { break }
            let wrapped = inner.contains("->") || inner.contains("&") ? "(\(inner))?" : inner + "?"
            text = String(text[..<start]) + wrapped + String(scanner.remaining)
        }
        return text
    }

    /// Where the first "Optional<" that begins a name starts.
    private static func optionalStart(in text: String) -> String.Index? {
        var searchFrom = text.startIndex
        while let found = text[searchFrom...].range(of: "Optional<") {
            if found.lowerBound == text.startIndex || !isIdentifierCharacter(text[text.index(before: found.lowerBound)]) {
                return found.lowerBound
            }
            searchFrom = found.upperBound
        }
        return nil
    }

    /// Whether two demangled types are the same, module qualifiers and sugar aside.
    static func sameType(_ first: String, _ second: String) -> Bool {
        lenient(first) == lenient(second)
    }

    /// "Greeter.Box<A>" → "Greeter.Box": conformance descriptors print generic arguments, method
    /// contexts do not.
    static func droppingGenericArguments(_ typeName: String) -> String {
        guard typeName.hasSuffix(">"), let open = typeName.firstIndex(of: "<") else { return typeName }
        return String(typeName[..<open])
    }

    /// The type without its module, for messages: "Greeter.Greeter" → "Greeter", "M.Outer.Inner" →
    /// "Outer.Inner", "M.(Hidden in _A41C…)" → "Hidden".
    static func withoutModule(_ typeName: String) -> String {
        var scanner = DemangledScanner(Substring(typeName))
        guard let path = scanner.scanPath(), path.count >= 2, scanner.isAtEnd else { return typeName }
        return path.dropFirst().map { component in
            guard component.hasPrefix("("), let space = component.firstIndex(of: " ") else { return component }
            return String(component[component.index(after: component.startIndex)..<space])
        }.joined(separator: ".")
    }

    /// The effects between a declaration's parameter list and its arrow: "func f(_ a: A) async throws -> B"
    /// → "async throws"; "" when there are none.
    static func effects(ofDeclaration declaration: String) -> String {
        guard let open = declaration.firstIndex(of: "(") else { return "" }
        var scanner = DemangledScanner(declaration[open...])
        guard scanner.scanBalanced() != nil, let between = scanner.scanUntilTopLevel(" -> ") else { return "" }
        return between.split(separator: " ").joined(separator: " ")
    }

    private static func isIdentifierStart(_ character: Character) -> Bool {
        character == "_" || character.isLetter
    }

    private static func isIdentifierCharacter(_ character: Character) -> Bool {
        character == "_" || character == "$" || character.isLetter || character.isNumber
    }
}
