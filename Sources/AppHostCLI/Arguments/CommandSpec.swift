/// Describes one command: its name, one-line summary, options, positional arguments and,
/// for the root command, its subcommands.
package struct CommandSpec: Sendable, Equatable {
    /// The subcommand's name, e.g. `"check"`, or `""` for the root command.
    package var name: String
    /// One line shown under the usage line in help, and beside the name in the root's command list.
    package var summary: String
    /// The options the command accepts, in help order. `-h, --help` is implicit; do not declare it.
    package var options: [OptionSpec]
    /// The positional arguments, or nil when the command takes none.
    package var positionals: PositionalSpec?
    /// The subcommands (root only), listed in help and used to resolve the first argument.
    package var subcommands: [CommandSpec]

    /// A command named `name` (`""` for the root).
    package init(
        name: String,
        summary: String,
        options: [OptionSpec] = [],
        positionals: PositionalSpec? = nil,
        subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
    }

    /// The declared options followed by the built-in help flag.
    var allOptions: [OptionSpec] { options + [OptionSpec.help] }

    /// The declared or built-in option called `name` (without dashes), if any.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    /// How errors name this command: the subcommand's name, or `program` for the root.
    func displayName(program: String) -> String {
        name.isEmpty ? program : name
    }

    /// Mistakes in the spec itself (a programming error, not a usage error); empty when sound.
    var wellFormednessProblems: [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var shorts: Set<Character> = []
        for option in allOptions {
            if option.name.isEmpty || option.name.hasPrefix("-")
                || option.name.contains(where: { $0 == "=" || $0.isWhitespace }) {
                problems.append("bad option name '\(option.name)'")
            }
            if !names.insert(option.name).inserted { problems.append("option '--\(option.name)' declared twice") }
            if let short = option.short {
                if short == "-" || short.isWhitespace { problems.append("bad short name '-\(short)'") }
                if !shorts.insert(short).inserted { problems.append("short option '-\(short)' declared twice") }
            }
            if let valueName = option.valueName, valueName.isEmpty {
                problems.append("option '--\(option.name)' has an empty value name")
            }
            if option.required && !option.takesValue { problems.append("flag '--\(option.name)' cannot be required") }
            if option.standalone && option.takesValue {
                problems.append("option '--\(option.name)' takes a value and cannot be standalone")
            }
        }
        if let positionals {
            if positionals.minCount < 0 { problems.append("negative minimum count for \(positionals.name)") }
            if let max = positionals.maxCount, max < positionals.minCount {
                problems.append("maximum count below minimum for \(positionals.name)")
            }
        }
        var commandNames: Set<String> = []
        for command in subcommands where command.name.isEmpty || !commandNames.insert(command.name).inserted {
            problems.append("bad or repeated subcommand name '\(command.name)'")
        }
        return problems
    }
}
