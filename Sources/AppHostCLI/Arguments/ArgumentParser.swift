// A small declarative argument parser for `apphost` (swift-argument-parser is not available).
//
// Accepted syntax, for any command:
//   --name value   --name=value   -x value      options taking a value
//   --name         -x                           flags
//   --                                          everything after it is positional
//   -                                           a positional or a value (stdin by convention)
//   --help, -h                                  anywhere before `--`: sets `wantsHelp`
// Options and positionals may be interleaved. A token such as `-5` is a number, not an option.

/// Parses one command's `arguments` (without the program name or subcommand) against `spec`.
///
/// The first mistake is thrown, looking in this order: options in command-line order, then
/// surplus positionals (an unknown command, for a root with subcommands), then missing
/// required options, then too few positionals.
///
/// When `--help` or `-h` appears, nothing is thrown and the result has
/// ``ParsedArguments/wantsHelp`` set; likewise nothing is thrown when a standalone flag such
/// as `--version` is given.
///
/// - Parameter program: the program's name, used to name the root command in errors.
/// - Throws: a ``UsageError`` describing the first mistake.
/// How many times a repeatable option may be given (`--plugin-dir`, `--only`, …).
package let maximumRepeats = 256

package func parse(_ arguments: [String], spec: CommandSpec, program: String = "apphost") throws(UsageError) -> ParsedArguments {
    assert(spec.wellFormednessProblems.isEmpty, "ill-formed spec: \(spec.wellFormednessProblems)")
    let commandName = spec.displayName(program: program)
    var parsed = ParsedArguments(spec: spec)
    var errors: [UsageError] = []
    var onlyPositionals = false
    var index = 0

    func record(_ option: OptionSpec, value: String?) {
        if !option.repeatable, parsed.count(option.name) > 0 {
            errors.append(.givenTwice(option, secondValue: value))
            return
        }
        // Bounded as the manifest's lists are (pluginSearchPaths: 256); said once.
        if option.repeatable, parsed.count(option.name) == maximumRepeats {
            errors.append(UsageError("option '\(option.displayName)' may be given at most \(maximumRepeats) times, found more"))
        }
        if option.repeatable, parsed.count(option.name) >= maximumRepeats { return }
        if let value {
            parsed.valuesByName[option.name, default: []].append(value)
        } else {
            parsed.flagCounts[option.name, default: 0] += 1
            if option == .help { parsed.wantsHelp = true }
        }
    }

    func unknown(_ token: String, name: Substring) -> UsageError {
        let bare = name.drop(while: { $0 == "-" })
        let guess = suggestion(for: String(bare), among: spec.allOptions.map(\.name))
        return .unknownOption(token, command: commandName, suggestion: guess.map { "--" + $0 })
    }

    while index < arguments.count {
        let token = arguments[index]
        index += 1
        if onlyPositionals || !isOptionLike(token) {
            parsed.positionals.append(token)
            continue
        }
        if token == "--" {
            onlyPositionals = true
            continue
        }

        let option: OptionSpec
        var inlineValue: String?
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name = body.prefix(while: { $0 != "=" })
            if name.count < body.count { inlineValue = String(body.dropFirst(name.count + 1)) }
            guard let found = spec.option(named: String(name)) else {
                errors.append(unknown("--" + name, name: name))
                continue
            }
            option = found
        } else {
            let body = token.dropFirst()
            guard body.count == 1, let found = spec.allOptions.first(where: { $0.short == body.first }) else {
                errors.append(unknown(token, name: body))
                continue
            }
            option = found
        }

        guard option.takesValue else {
            if inlineValue != nil {
                errors.append(.takesNoValue(option, found: token))
            } else {
                record(option, value: nil)
            }
            continue
        }
        var value = inlineValue
        if value == nil, index < arguments.count, !isOptionLike(arguments[index]) {
            value = arguments[index]
            index += 1
        }
        guard let value, !value.isEmpty else {
            errors.append(.needsValue(option, empty: value != nil))
            continue
        }
        record(option, value: value)
    }

    if parsed.wantsHelp || spec.options.contains(where: { $0.standalone && parsed.flag($0.name) }) {
        return parsed
    }
    if let first = errors.first { throw first }

    let limits = spec.positionals
    let most: Int? = limits == nil ? 0 : limits?.maxCount
    if let max = most, parsed.positionals.count > max {
        let extra = parsed.positionals[max]
        if limits == nil, !spec.subcommands.isEmpty {
            let guess = suggestion(for: extra, among: spec.subcommands.map(\.name))
            throw .unknownCommand(extra, program: commandName, suggestion: guess)
        }
        throw .unexpectedArgument(extra, limit: limits, command: commandName)
    }
    for option in spec.options where option.required && parsed.count(option.name) == 0 {
        throw .missingRequired(option)
    }
    if let limits, parsed.positionals.count < limits.minCount {
        throw .tooFewPositionals(limits, command: commandName)
    }
    return parsed
}

/// Splits off the subcommand: the first argument that is neither an option nor an option's
/// value, when it is one of `known`. The command is removed from `rest`; everything else,
/// including options before it, stays in order. When that argument is not in `known`
/// (or there is none, or `--` comes first), returns nil and the arguments unchanged.
///
/// - Parameter root: the root command's spec, so that a value such as `list` in
///   `--manifest list` is skipped as a value; without it every non-option token counts.
package func splitSubcommand(_ args: [String], known: [String], root: CommandSpec? = nil) -> (command: String?, rest: [String]) {
    var index = 0
    while index < args.count {
        let token = args[index]
        if token == "--" { break }
        if !isOptionLike(token) {
            guard known.contains(token) else { break }
            var rest = args
            rest.remove(at: index)
            return (token, rest)
        }
        index += 1
        if let root, !token.contains("="), index < args.count, !isOptionLike(args[index]),
           optionTakingValue(token, in: root) {
            index += 1
        }
    }
    return (nil, args)
}

/// Parses a whole command line (without the program name): picks the subcommand of `root`
/// named by the first non-option argument, if any, and parses the rest against it;
/// otherwise parses everything against `root`.
///
/// An argument naming no subcommand is reported as `unknown command 'chek' for 'apphost'
/// (did you mean 'check'?)` when `root` takes no positionals.
package func parseCommandLine(_ arguments: [String], root: CommandSpec, program: String = "apphost") throws(UsageError) -> ParsedArguments {
    let (name, rest) = splitSubcommand(arguments, known: root.subcommands.map(\.name), root: root)
    if let name, let command = root.subcommands.first(where: { $0.name == name }) {
        return try parse(rest, spec: command, program: program)
    }
    return try parse(arguments, spec: root, program: program)
}

/// Whether `token` reads as an option (or `--`): it starts with `-`, is not `-` alone,
/// and is not a negative number such as `-5` or `-0.5`.
func isOptionLike(_ token: String) -> Bool {
    guard token.hasPrefix("-"), token.count > 1 else { return false }
    let rest = token.dropFirst()
    let isNumber = rest.contains(where: \.isASCIIDigitCharacter)
        && rest.allSatisfy { $0.isASCIIDigitCharacter || $0 == "." }
    return !isNumber
}

/// Whether `token` (`--name` or `-x`) names an option of `spec` that takes a value.
private func optionTakingValue(_ token: String, in spec: CommandSpec) -> Bool {
    if token.hasPrefix("--") {
        return spec.option(named: String(token.dropFirst(2)))?.takesValue ?? false
    }
    let short = token.dropFirst()
    return short.count == 1 && spec.allOptions.contains { $0.short == short.first && $0.takesValue }
}

extension Character {
    /// Whether this is one of `0`…`9`.
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}
