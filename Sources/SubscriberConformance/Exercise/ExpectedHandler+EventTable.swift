import SubscriberKit
import SubscriberEventModel

// The handlers the SDK calls, derived in this one place from the event table: each row's protocol and
// requirement text give the selector, the parameter types and the result type the symbol scan compares
// a plugin's methods with. A test checks the derivation against the compiler's own symbols of a type
// that adopts every event protocol.
extension ExpectedHandler {
    /// Every event's handler, in event-table order.
    static let all: [ExpectedHandler] = EventTable.rows.map(ExpectedHandler.init(row:))

    /// The handler of `row`, read from its requirement: "func <base>(<label> <name>: <Type>, …)[ effects][ -> <Result>]".
    /// A requirement that does not read so is a bug of the table, caught by the kit's tests.
    init(row: EventRow) {
        let text = row.swiftRequirement
        var scanner = DemangledScanner(Substring(text))
        scanner.skip("func ")
        let baseName = scanner.scanUntilTopLevel("(") ?? ""
        let parameters = scanner.scanBalanced() ?? ""
        var labels: [String] = [], types: [String] = []
        for parameter in DemangledScanner.splitTopLevel(parameters, separator: ", ") where !parameter.isEmpty {
            // "open url: URL": the label is the first word (the only one when label and name agree).
            let (names, type) = Self.split(parameter, at: ": ")
            labels.append(String(names.prefix { $0 != " " }))
            types.append(Self.demanglerSpelling(type))
        }
        let result = scanner.scanUntilTopLevel(" -> ") != nil && scanner.skip(" -> ") ? String(scanner.remaining) : "()"
        self.init(event: row.event.name, protocolName: row.swiftProtocol,
                  selector: baseName + "(" + labels.map { $0 + ":" }.joined() + ")", signature: text,
                  parameterTypes: types, returnType: Self.demanglerSpelling(result))
    }

    /// `type` as the runtime's demangler spells it, which sugars nothing: "[String]" → "Array<String>",
    /// "[K: V]" → "Dictionary<K, V>", nested ones too. (Optionals are compared sugar aside already;
    /// a type alias such as JSONObject keeps its name in a symbol.)
    static func demanglerSpelling(_ type: String) -> String {
        var output = ""
        var scanner = DemangledScanner(Substring(type))
        while let next = scanner.remaining.first {
            guard next == "[" else {
                output.append(next)
                _ = scanner.skip(String(next))
                continue
            }
            _ = scanner.skip("[")
            guard let inside = scanner.scanUntilTopLevel("]"), scanner.skip("]") else { return type }
            let parts = DemangledScanner.splitTopLevel(inside, separator: ": ").map(demanglerSpelling)
            output += parts.count == 2 ? "Dictionary<\(parts[0]), \(parts[1])>" : "Array<\(parts[0])>"
        }
        return output
    }

    private static func split(_ text: String, at separator: String) -> (String, String) {
        guard let range = text.range(of: separator) else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }
}
