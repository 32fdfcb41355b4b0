/// A cursor over demangled text that knows its brackets: `()`, `[]`, `<>` nest, and the `>` of `->`
/// closes nothing.
struct DemangledScanner {
    /// The text not scanned yet.
    private(set) var remaining: Substring

    /// A scanner at the start of `text`.
    init(_ text: Substring) { remaining = text }

    /// Whether everything has been scanned.
    var isAtEnd: Bool { remaining.isEmpty }

    /// Skips `prefix` if the text continues with it.
    @discardableResult
    mutating func skip(_ prefix: String) -> Bool {
        guard remaining.hasPrefix(prefix) else { return false }
        remaining = remaining.dropFirst(prefix.count)
        return true
    }

    /// The text up to the first `separator` outside brackets (not consumed), or all of it when there is
    /// none; nil when a bracket does not close.
    mutating func scanUntilTopLevel(_ separator: String) -> String? {
        var depth = 0
        var index = remaining.startIndex
        while index < remaining.endIndex {
            let character = remaining[index]
            let isArrowHead = character == ">" && index > remaining.startIndex
                && remaining[remaining.index(before: index)] == "-"
            if depth == 0 && !isArrowHead && remaining[index...].hasPrefix(separator) { break }
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]":
                depth -= 1
                if depth < 0 { return nil }
            case ">" where !isArrowHead:
                depth -= 1
                if depth < 0 { return nil }
            default: break
            }
            index = remaining.index(after: index)
        }
        guard depth == 0 else { return nil }
        let scanned = String(remaining[..<index])
        remaining = remaining[index...]
        return scanned
    }

    /// The contents of the bracketed group the text starts with (`(…)`), consumed with its brackets.
    mutating func scanBalanced() -> String? {
        guard skip("(") else { return nil }
        guard let inside = scanUntilTopLevel(")"), skip(")") else { return nil }
        return inside
    }

    /// A dotted path at the start: identifiers (`Greeter`, `__deallocating_deinit`) and, after a dot,
    /// parenthesised names (`(Hidden in _A41C…)`, a private type). Stops before anything else.
    mutating func scanPath() -> [String]? {
        var components: [String] = []
        while true {
            if !components.isEmpty, remaining.hasPrefix("(") {
                guard let inside = scanBalanced() else { return nil }
                components.append("(" + inside + ")")
            } else {
                let name = remaining.prefix { $0 == "_" || $0 == "$" || $0.isLetter || $0.isNumber }
                guard let first = name.first, !first.isNumber else { return components.isEmpty ? nil : components }
                components.append(String(name))
                remaining = remaining.dropFirst(name.count)
            }
            guard remaining.hasPrefix("."), let next = remaining.dropFirst().first,
                  next == "_" || next == "(" || next.isLetter
            else { return components }
            remaining = remaining.dropFirst()
        }
    }

    /// `text` split at each top-level `separator`.
    static func splitTopLevel(_ text: String, separator: String) -> [String] {
        var scanner = DemangledScanner(Substring(text))
        var parts: [String] = []
        while let part = scanner.scanUntilTopLevel(separator) {
            parts.append(part)
            if !scanner.skip(separator) { break }
        }
        return parts
    }
}
