/// Describes one option of a command: `--name`, optionally `-x`, either a flag or taking a value.
///
/// Names are written without dashes (`"manifest"`); the parser adds them.
package struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `"manifest"` for `--manifest`.
    package var name: String
    /// The one-letter short form, e.g. `"m"` for `-m`, or nil for none. `h` is taken by help.
    package var short: Character?
    /// What the value is called in help and errors, e.g. `"FILE"`; nil makes the option a flag.
    package var valueName: String?
    /// One line for the help table.
    package var help: String
    /// Whether the option may be given more than once; each value is kept, in order.
    package var repeatable: Bool
    /// Whether parsing fails when the option is absent. Only meaningful for options with a value.
    package var required: Bool
    /// Whether the flag, like `--help`, asks for something other than a normal run (`--version`):
    /// when it is given, parsing reports no errors, so `apphost --version` needs no `--manifest`.
    package var standalone: Bool

    /// An option named `name` (without dashes). Pass `valueName` to make it take a value.
    package init(
        _ name: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String,
        repeatable: Bool = false,
        required: Bool = false,
        standalone: Bool = false
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.required = required
        self.standalone = standalone
    }

    /// A flag: `--name` (or `-x`), present or absent, never with a value.
    /// A `standalone` flag, like `--help`, silences every usage error when given.
    package static func flag(
        _ name: String,
        short: Character? = nil,
        help: String,
        repeatable: Bool = false,
        standalone: Bool = false
    ) -> OptionSpec {
        OptionSpec(name, short: short, help: help, repeatable: repeatable, standalone: standalone)
    }

    /// An option taking a value called `valueName`: `--name VALUE`, `--name=VALUE` or `-x VALUE`.
    package static func value(
        _ name: String,
        _ valueName: String,
        short: Character? = nil,
        help: String,
        repeatable: Bool = false,
        required: Bool = false
    ) -> OptionSpec {
        OptionSpec(name, short: short, valueName: valueName, help: help, repeatable: repeatable, required: required)
    }

    /// Whether the option takes a value (it is not a flag).
    package var takesValue: Bool { valueName != nil }

    /// The long form with dashes, e.g. `--manifest`.
    package var displayName: String { "--" + name }

    /// The built-in `-h, --help` flag every command understands.
    static let help = OptionSpec.flag("help", short: "h", help: "Show this help.", standalone: true)
}

/// Describes a command's positional arguments: what one is called and how many are allowed.
package struct PositionalSpec: Sendable, Equatable {
    /// What one argument is called in help and errors, e.g. `"PLUGIN.so"`.
    package var name: String
    /// One line for the help's arguments section; empty leaves the section out.
    package var help: String
    /// The fewest arguments accepted.
    package var minCount: Int
    /// The most arguments accepted, or nil for no limit.
    package var maxCount: Int?

    /// Positional arguments called `name`, between `minCount` and `maxCount` (nil: unbounded) of them.
    package init(_ name: String, help: String = "", minCount: Int = 0, maxCount: Int? = nil) {
        self.name = name
        self.help = help
        self.minCount = minCount
        self.maxCount = maxCount
    }
}
