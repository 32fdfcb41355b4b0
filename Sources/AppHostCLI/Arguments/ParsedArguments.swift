/// The result of parsing one command's arguments against its ``CommandSpec``.
///
/// Look options up by their long name without dashes. Asking about a name the spec does not
/// declare (or asking a flag for its value) is a programming error and stops the program.
package struct ParsedArguments: Sendable, Equatable {
    /// The spec the arguments were parsed against.
    package let spec: CommandSpec
    /// The positional arguments, in order (everything after `--` included).
    package internal(set) var positionals: [String] = []
    /// Whether `--help` or `-h` appeared before any `--`. When set, parsing reported no errors:
    /// the caller should print ``helpText(for:program:)`` and exit successfully.
    package internal(set) var wantsHelp = false

    /// Values given for each value option, in command-line order.
    var valuesByName: [String: [String]] = [:]
    /// How many times each flag was given.
    var flagCounts: [String: Int] = [:]

    init(spec: CommandSpec) {
        self.spec = spec
    }

    /// The name of the command these arguments belong to (`""` for the root).
    package var command: String { spec.name }

    /// Whether the flag `--name` was given.
    package func flag(_ name: String) -> Bool {
        count(name) > 0
    }

    /// How many times the option `--name` was given (a flag's repetitions, or a value option's values).
    package func count(_ name: String) -> Int {
        let option = declared(name)
        return option.takesValue ? valuesByName[name, default: []].count : flagCounts[name, default: 0]
    }

    /// The value given for `--name`, or nil when absent. For a repeatable option, the last one.
    package func value(_ name: String) -> String? {
        values(name).last
    }

    /// Every value given for `--name`, in command-line order; empty when absent.
    package func values(_ name: String) -> [String] {
        let option = declared(name)
        precondition(option.takesValue, "'--\(name)' is a flag: ask flag(_:), not for its value")
        return valuesByName[name, default: []]
    }

    /// The values of `--name` split at commas, trimmed, empty items dropped, across every
    /// occurrence: `--only a,b --only c` gives `["a", "b", "c"]`.
    package func list(_ name: String) -> [String] {
        values(name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        }
    }

    /// The value of `--name` as a whole number, or nil when absent.
    ///
    /// - Parameters:
    ///   - unit: what the number counts, for the error message (`"milliseconds"`).
    ///   - minimum: the smallest value accepted, if any.
    ///   - maximum: the largest value accepted, if any.
    /// - Throws: e.g. `--deadline expects a whole number of milliseconds, found 'abc'`,
    ///   `--timeout expects a whole number of milliseconds, at least 1, found '0'`, or (both bounds)
    ///   `--termination-deadline expects a whole number of milliseconds from 1 to 600000, found '600001'`.
    package func int(_ name: String, of unit: String? = nil, atLeast minimum: Int? = nil,
                     atMost maximum: Int? = nil) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        var expected = "--\(name) expects a whole number"
        if let unit { expected += " of \(unit)" }
        switch (minimum, maximum) {
        case let (minimum?, maximum?): expected += " from \(minimum) to \(maximum)"
        case let (minimum?, nil): expected += ", at least \(minimum)"
        case let (nil, maximum?): expected += ", at most \(maximum)"
        case (nil, nil): break
        }
        guard let number = Int(text), number >= (minimum ?? .min), number <= (maximum ?? .max) else {
            throw UsageError("\(expected), found '\(ErrorLine.value(text))'")
        }
        return number
    }

    /// The declared option called `name`; stops the program when there is none.
    private func declared(_ name: String) -> OptionSpec {
        guard let option = spec.option(named: name) else {
            preconditionFailure("'--\(name)' is not an option of '\(spec.name)'")
        }
        return option
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
