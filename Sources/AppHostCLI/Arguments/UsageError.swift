/// A mistake on the command line: one clear line saying what is wrong, where, what was
/// expected and what was found, e.g. `option '--manifest' needs a value (FILE)`.
///
/// The CLI prints it (usually followed by a hint to run `--help`) and exits with status 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The one-line message, without a trailing newline or an `error:` prefix.
    package var message: String

    /// A usage error carrying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message itself.
    package var description: String { message }
}

extension UsageError {
    static func unknownOption(_ shown: String, command: String, suggestion: String?) -> UsageError {
        var text = "unknown option '\(ErrorLine.value(shown))' for '\(command)'"
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        return UsageError(text)
    }

    static func unknownCommand(_ found: String, program: String, suggestion: String?) -> UsageError {
        var text = "unknown command '\(ErrorLine.value(found))' for '\(program)'"
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        return UsageError(text)
    }

    /// `empty`: a value was given, and it was empty (`--log-file ''`, `--manifest=`).
    static func needsValue(_ option: OptionSpec, empty: Bool = false) -> UsageError {
        UsageError("option '\(option.displayName)' needs a value (\(option.valueName ?? "VALUE"))" + (empty ? ", found an empty one" : ""))
    }

    static func takesNoValue(_ option: OptionSpec, found: String) -> UsageError {
        UsageError("option '\(option.displayName)' takes no value, found '\(ErrorLine.value(found))'")
    }

    static func givenTwice(_ option: OptionSpec, secondValue: String?) -> UsageError {
        if let secondValue {
            return UsageError("option '\(option.displayName)' may be given only once, found a second value '\(ErrorLine.value(secondValue))'")
        }
        return UsageError("option '\(option.displayName)' may be given only once")
    }

    static func missingRequired(_ option: OptionSpec) -> UsageError {
        UsageError("missing required option '\(option.displayName)'")
    }

    static func tooFewPositionals(_ positionals: PositionalSpec, command: String) -> UsageError {
        let count = positionals.minCount == 1 ? "one" : String(positionals.minCount)
        return UsageError("'\(command)' needs at least \(count) \(positionals.name)")
    }

    static func unexpectedArgument(_ found: String, limit: PositionalSpec?, command: String) -> UsageError {
        guard let limit, let max = limit.maxCount else { return UsageError("unexpected argument '\(ErrorLine.value(found))'") }
        let count = max == 1 ? "one" : String(max)
        return UsageError("unexpected argument '\(ErrorLine.value(found))' ('\(command)' takes at most \(count) \(limit.name))")
    }
}
