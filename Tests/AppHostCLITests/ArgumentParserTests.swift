import Testing
@testable import AppHostCLI
import SubscriberHost

/// Specs shaped like the real `apphost` commands.
private enum Specs {
    static let run = CommandSpec(
        name: "",
        summary: "Load plugins from a manifest and deliver lifecycle events to them.",
        options: [
            .value("manifest", "FILE", short: "m", help: "The plugin manifest.", required: true),
            .value("events", "FILE|-", help: "Events to deliver; '-' reads standard input."),
            .flag("json", help: "Print results as JSON."),
            .value("log-file", "FILE", help: "Also write the log to FILE."),
            .value("deadline", "MS", help: "Per-event deadline in milliseconds."),
            .value("plugin-dir", "DIR", help: "Also search DIR for plugins.", repeatable: true),
            .flag("allow-writable", help: "Load plugins from writable locations."),
            .flag("version", help: "Print the version.", standalone: true),
        ],
        subcommands: [list, check]
    )

    static let list = CommandSpec(
        name: "list",
        summary: "List the plugins a manifest names.",
        options: [
            .value("manifest", "FILE", required: true) ,
            .flag("json", help: "Print results as JSON."),
            .value("plugin-dir", "DIR", help: "Also search DIR for plugins.", repeatable: true),
        ]
    )

    static let check = CommandSpec(
        name: "check",
        summary: "Run the conformance kit against plugins.",
        options: [
            .flag("json", help: "Print results as JSON."),
            .value("junit", "FILE", help: "Write a JUnit XML report to FILE."),
            .value("only", "ID,...", help: "Run only these checks.", repeatable: true),
            .value("skip", "ID,...", help: "Skip these checks.", repeatable: true),
            .value("seed", "N", help: "Seed for randomized checks."),
            .value("timeout", "MS", help: "Per-check timeout in milliseconds."),
            .flag("allow-writable", help: "Load plugins from writable locations."),
            .flag("verbose", short: "v", help: "Say more.", repeatable: true),
        ],
        positionals: PositionalSpec("PLUGIN.so", help: "Plugin libraries to check.", minCount: 1)
    )

    static let one = CommandSpec(
        name: "one",
        summary: "Takes at most one file.",
        positionals: PositionalSpec("FILE", maxCount: 1)
    )
}

private extension OptionSpec {
    static func value(_ name: String, _ valueName: String, required: Bool) -> OptionSpec {
        .value(name, valueName, help: "The plugin manifest.", required: required)
    }
}

/// Parses, expecting success.
private func parsed(_ arguments: [String], _ spec: CommandSpec = Specs.run) throws -> ParsedArguments {
    try parse(arguments, spec: spec)
}

/// Parses, expecting a usage error, and returns its message.
private func failure(_ arguments: [String], _ spec: CommandSpec = Specs.run) -> String? {
    do {
        _ = try parse(arguments, spec: spec)
        return nil
    } catch {
        return error.message
    }
}

// MARK: - Syntax forms

@Suite("Syntax")
struct SyntaxTests {
    @Test func separateValue() throws {
        let args = try parsed(["--manifest", "m.json"])
        #expect(args.value("manifest") == "m.json")
        #expect(args.values("manifest") == ["m.json"])
        #expect(args.command == "")
    }

    @Test func inlineValue() throws {
        let args = try parsed(["--manifest=m.json", "--deadline=250"])
        #expect(args.value("manifest") == "m.json")
        #expect(args.value("deadline") == "250")
    }

    @Test func inlineValueKeepsLaterEqualsSigns() throws {
        let args = try parsed(["--manifest=a=b.json"])
        #expect(args.value("manifest") == "a=b.json")
    }

    @Test func shortOptionWithValue() throws {
        let args = try parsed(["-m", "m.json"])
        #expect(args.value("manifest") == "m.json")
    }

    @Test func flags() throws {
        let args = try parsed(["--manifest", "m", "--json", "--allow-writable"])
        #expect(args.flag("json"))
        #expect(args.flag("allow-writable"))
        #expect(!args.flag("version"))
        #expect(args.value("events") == nil)
        #expect(args.values("plugin-dir").isEmpty)
    }

    @Test func shortFlagRepeatableCounts() throws {
        let args = try parsed(["-v", "x.so", "--verbose", "-v"], Specs.check)
        #expect(args.flag("verbose"))
        #expect(args.count("verbose") == 3)
        #expect(args.positionals == ["x.so"])
    }

    @Test func dashIsAValue() throws {
        let args = try parsed(["--manifest", "m", "--events", "-"])
        #expect(args.value("events") == "-")
        let inline = try parsed(["--manifest", "m", "--events=-"])
        #expect(inline.value("events") == "-")
    }

    @Test func dashIsAPositional() throws {
        let args = try parsed(["-", "a.so"], Specs.check)
        #expect(args.positionals == ["-", "a.so"])
    }

    @Test func doubleDashEndsOptions() throws {
        let args = try parsed(["--json", "--", "--weird.so", "-h", "--", "-"], Specs.check)
        #expect(args.flag("json"))
        #expect(args.positionals == ["--weird.so", "-h", "--", "-"])
        #expect(!args.wantsHelp)
    }

    @Test func optionsAndPositionalsInterleave() throws {
        let args = try parsed(["a.so", "--json", "b.so", "--seed", "7", "c.so"], Specs.check)
        #expect(args.positionals == ["a.so", "b.so", "c.so"])
        #expect(args.flag("json"))
        #expect(args.value("seed") == "7")
    }

    @Test func repeatedOptionsKeepOrder() throws {
        let args = try parsed(["--plugin-dir", "b", "--manifest", "m", "--plugin-dir=a", "--plugin-dir", "c"])
        #expect(args.values("plugin-dir") == ["b", "a", "c"])
        #expect(args.value("plugin-dir") == "c")
        #expect(args.count("plugin-dir") == 3)
    }

    @Test func negativeNumberIsAValue() throws {
        let args = try parsed(["--seed", "-3", "a.so"], Specs.check)
        #expect(args.value("seed") == "-3")
    }

    @Test func negativeNumberIsAPositional() throws {
        let args = try parsed(["-3"], Specs.one)
        #expect(args.positionals == ["-3"])
    }

    @Test func noArgumentsIsFineWhenNothingIsRequired() throws {
        let args = try parsed([], Specs.one)
        #expect(args.positionals.isEmpty)
        #expect(!args.wantsHelp)
    }
}

// MARK: - Help requests

@Suite("Help requests")
struct HelpRequestTests {
    @Test(arguments: [["--help"], ["-h"], ["--manifest", "m", "--help"], ["--json", "-h", "--deadline", "5"]])
    func helpAnywhere(_ arguments: [String]) throws {
        #expect(try parsed(arguments).wantsHelp)
    }

    @Test func helpSuppressesErrors() throws {
        // No required --manifest, an unknown option, a missing value: help still wins.
        #expect(try parsed(["--manfest", "x", "--help", "--deadline"]).wantsHelp)
        #expect(try parsed(["--help"], Specs.check).wantsHelp)
    }

    @Test func helpIsNotAValue() throws {
        #expect(try parsed(["--manifest", "-h"]).wantsHelp)
    }

    @Test func helpAfterDoubleDashIsPositional() throws {
        let args = try parsed(["--", "--help"], Specs.check)
        #expect(!args.wantsHelp)
        #expect(args.positionals == ["--help"])
    }

    @Test func standaloneFlagSuppressesErrors() throws {
        let args = try parsed(["--version", "--bogus"])
        #expect(args.flag("version"))
        #expect(!args.wantsHelp)
    }

    @Test func helpTakesNoValue() {
        #expect(failure(["--help=yes"]) == "option '--help' takes no value, found '--help=yes'")
    }
}

// MARK: - Errors, by exact text

@Suite("Usage errors")
struct UsageErrorTests {
    @Test func unknownOptionWithSuggestion() {
        #expect(failure(["--manfest", "m"]) == "unknown option '--manfest' for 'apphost' (did you mean '--manifest'?)")
    }

    @Test func unknownOptionWithSuggestionViaInlineValue() {
        #expect(failure(["--manfest=m"]) == "unknown option '--manfest' for 'apphost' (did you mean '--manifest'?)")
    }

    @Test func unknownOptionSuggestsForTranspositionAndCase() {
        #expect(failure(["--mainfest", "m"]) == "unknown option '--mainfest' for 'apphost' (did you mean '--manifest'?)")
        #expect(failure(["--JSON"], Specs.check) == "unknown option '--JSON' for 'check' (did you mean '--json'?)")
    }

    @Test func unknownOptionSuggestsForUniquePrefix() {
        #expect(failure(["--allow"], Specs.check) == "unknown option '--allow' for 'check' (did you mean '--allow-writable'?)")
    }

    @Test func unknownOptionWithSingleDashSuggestsLongForm() {
        #expect(failure(["-manifest", "m"]) == "unknown option '-manifest' for 'apphost' (did you mean '--manifest'?)")
    }

    @Test func unknownOptionWithoutSuggestion() {
        #expect(failure(["--frobnicate"]) == "unknown option '--frobnicate' for 'apphost'")
        #expect(failure(["-q"]) == "unknown option '-q' for 'apphost'")
    }

    @Test func unknownOptionNamesTheSubcommand() {
        #expect(failure(["a.so", "--deadline", "5"], Specs.check) == "unknown option '--deadline' for 'check'")
    }

    @Test func unknownOptionUsesTheProgramName() throws {
        #expect(throws: UsageError("unknown option '--x' for 'tool'")) {
            try parse(["--x"], spec: Specs.one.with(name: ""), program: "tool")
        }
    }

    @Test func missingValueAtEnd() {
        #expect(failure(["--manifest"]) == "option '--manifest' needs a value (FILE)")
    }

    @Test func missingValueBeforeAnotherOption() {
        #expect(failure(["--manifest", "--json"]) == "option '--manifest' needs a value (FILE)")
        #expect(failure(["-m", "--", "x"]) == "option '--manifest' needs a value (FILE)")
    }

    @Test("a repeatable option is bounded: 256 times taken, one more refused in one line, however many follow")
    func repeatsBounded() throws {
        let taken = try parse(["--manifest", "m"] + (0..<256).flatMap { ["--plugin-dir", "d\($0)"] }, spec: Specs.run)
        #expect(taken.values("plugin-dir").count == 256)
        for extra in [257, 5_000] {
            #expect(failure(["--manifest", "m"] + (0..<extra).flatMap { ["--plugin-dir", "d\($0)"] })
                    == "option '--plugin-dir' may be given at most 256 times, found more")
        }
        #expect(failure(["a.so"] + Array(repeating: "-v", count: 300), Specs.check) == "option '--verbose' may be given at most 256 times, found more")
    }

    @Test func emptyValue() {
        #expect(failure(["--manifest="]) == "option '--manifest' needs a value (FILE), found an empty one")
        #expect(failure(["--manifest", ""]) == "option '--manifest' needs a value (FILE), found an empty one")
    }

    @Test func missingRequiredOption() {
        #expect(failure([]) == "missing required option '--manifest'")
        #expect(failure(["--json"]) == "missing required option '--manifest'")
    }

    @Test func tooFewPositionals() {
        #expect(failure([], Specs.check) == "'check' needs at least one PLUGIN.so")
        #expect(failure(["--json"], Specs.check) == "'check' needs at least one PLUGIN.so")
        let two = Specs.check.with(positionals: PositionalSpec("FILE", minCount: 2))
        #expect(failure(["a"], two) == "'check' needs at least 2 FILE")
    }

    @Test func flagTakesNoValue() {
        #expect(failure(["--manifest", "m", "--json=yes"]) == "option '--json' takes no value, found '--json=yes'")
        #expect(failure(["--manifest", "m", "--json="]) == "option '--json' takes no value, found '--json='")
    }

    @Test func unexpectedArgument() {
        #expect(failure(["foo"], Specs.list.with(options: [])) == "unexpected argument 'foo'")
        #expect(failure(["--manifest", "m", "foo"], Specs.list) == "unexpected argument 'foo'")
    }

    @Test func tooManyPositionals() {
        #expect(failure(["a", "b"], Specs.one) == "unexpected argument 'b' ('one' takes at most one FILE)")
        let two = Specs.one.with(positionals: PositionalSpec("FILE", maxCount: 2))
        #expect(failure(["a", "b", "c"], two) == "unexpected argument 'c' ('one' takes at most 2 FILE)")
    }

    @Test func givenTwice() {
        #expect(failure(["--manifest", "a.json", "--manifest=b.json"])
            == "option '--manifest' may be given only once, found a second value 'b.json'")
        #expect(failure(["--manifest", "m", "--json", "--json"]) == "option '--json' may be given only once")
    }

    @Test func firstErrorInCommandLineOrderWins() {
        #expect(failure(["--bogus", "--json=1"]) == "unknown option '--bogus' for 'apphost'")
        #expect(failure(["--json=1", "--bogus"]) == "option '--json' takes no value, found '--json=1'")
    }

    @Test func unknownCommandWithSuggestion() {
        #expect(failure(["chek", "a.so"]) == "unknown command 'chek' for 'apphost' (did you mean 'check'?)")
        #expect(failure(["--manifest", "m", "frob"]) == "unknown command 'frob' for 'apphost'")
    }

    @Test func errorIsOneLineAndDescribesItself() throws {
        let error = UsageError("option '--manifest' needs a value (FILE)")
        #expect(error.description == error.message)
        #expect(!error.description.contains("\n"))
        #expect(throws: error) { try parse(["--manifest"], spec: Specs.run) }
    }
}

// MARK: - Typed helpers

@Suite("Typed values")
struct TypedValueTests {
    @Test func intParses() throws {
        let args = try parsed(["--manifest", "m", "--deadline", "250"])
        #expect(try args.int("deadline", of: "milliseconds") == 250)
        #expect(try args.int("deadline", of: "milliseconds", atLeast: 1) == 250)
    }

    @Test func intAbsentIsNil() throws {
        #expect(try parsed(["--manifest", "m"]).int("deadline") == nil)
    }

    @Test func intRejectsText() throws {
        let args = try parsed(["--manifest", "m", "--deadline", "abc"])
        #expect(throws: UsageError("--deadline expects a whole number of milliseconds, found 'abc'")) {
            try args.int("deadline", of: "milliseconds")
        }
        #expect(throws: UsageError("--deadline expects a whole number, found 'abc'")) {
            try args.int("deadline")
        }
    }

    @Test(arguments: ["1.5", "", "12ms", "99999999999999999999999"])
    func intRejectsNonWholeNumbers(_ text: String) throws {
        var args = try parsed(["--manifest", "m"])
        args.valuesByName["deadline"] = [text]
        #expect(throws: UsageError("--deadline expects a whole number of milliseconds, found '\(text)'")) {
            try args.int("deadline", of: "milliseconds")
        }
    }

    @Test func intEnforcesMinimum() throws {
        let args = try parsed(["a.so", "--timeout", "0"], Specs.check)
        #expect(throws: UsageError("--timeout expects a whole number of milliseconds, at least 1, found '0'")) {
            try args.int("timeout", of: "milliseconds", atLeast: 1)
        }
        let negative = try parsed(["a.so", "--seed=-4"], Specs.check)
        #expect(try negative.int("seed") == -4)
    }

    @Test("a bounded number names both bounds, and a value past the upper one is refused, not carried on to overflow later")
    func intEnforcesMaximum() throws {
        for (text, accepted) in [("600000", true), ("600001", false), ("18446744073710", false), ("1", true), ("0", false)] {
            var args = try parsed(["--manifest", "m"])
            args.valuesByName["deadline"] = [text]
            if accepted {
                #expect(try args.int("deadline", of: "milliseconds", atLeast: 1, atMost: 600_000) == Int(text))
            } else {
                #expect(throws: UsageError("--deadline expects a whole number of milliseconds from 1 to 600000, found '\(text)'")) {
                    try args.int("deadline", of: "milliseconds", atLeast: 1, atMost: 600_000)
                }
            }
        }
        var args = try parsed(["--manifest", "m"])
        args.valuesByName["deadline"] = ["11"]
        #expect(throws: UsageError("--deadline expects a whole number, at most 10, found '11'")) { try args.int("deadline", atMost: 10) }
    }

    @Test func listSplitsCommasAcrossOccurrences() throws {
        let args = try parsed(["a.so", "--only", "b, a,,", "--only=c", "--skip", "x"], Specs.check)
        #expect(args.list("only") == ["b", "a", "c"])
        #expect(args.list("skip") == ["x"])
        #expect(args.list("junit").isEmpty)
    }
}

// MARK: - Subcommands

@Suite("Subcommands")
struct SubcommandTests {
    let known = ["list", "check"]

    @Test func firstArgumentIsTheCommand() {
        let split = splitSubcommand(["check", "a.so", "--json"], known: known)
        #expect(split.command == "check")
        #expect(split.rest == ["a.so", "--json"])
    }

    @Test func optionsBeforeTheCommandStay() {
        let split = splitSubcommand(["--json", "list", "--manifest", "m"], known: known)
        #expect(split.command == "list")
        #expect(split.rest == ["--json", "--manifest", "m"])
    }

    @Test func unknownWordIsNoCommand() {
        let split = splitSubcommand(["frob", "check"], known: known)
        #expect(split.command == nil)
        #expect(split.rest == ["frob", "check"])
    }

    @Test func noCommand() {
        #expect(splitSubcommand([], known: known).command == nil)
        #expect(splitSubcommand(["--manifest=m", "--json"], known: known).command == nil)
        #expect(splitSubcommand(["--", "check"], known: known).command == nil)
    }

    @Test func optionValueIsNotTheCommandWhenRootIsGiven() {
        let withRoot = splitSubcommand(["--manifest", "list", "--json"], known: known, root: Specs.run)
        #expect(withRoot.command == nil)
        #expect(withRoot.rest == ["--manifest", "list", "--json"])
        let short = splitSubcommand(["-m", "list"], known: known, root: Specs.run)
        #expect(short.command == nil)
        let flagThenCommand = splitSubcommand(["--json", "check", "a.so"], known: known, root: Specs.run)
        #expect(flagThenCommand.command == "check")
        let withoutRoot = splitSubcommand(["--manifest", "list"], known: known)
        #expect(withoutRoot.command == "list")
    }

    @Test func parseCommandLineDispatches() throws {
        let check = try parseCommandLine(["check", "a.so", "b.so", "--only", "x,y"], root: Specs.run)
        #expect(check.command == "check")
        #expect(check.positionals == ["a.so", "b.so"])
        #expect(check.list("only") == ["x", "y"])

        let list = try parseCommandLine(["list", "--manifest", "m", "--plugin-dir", "p"], root: Specs.run)
        #expect(list.command == "list")
        #expect(list.values("plugin-dir") == ["p"])

        let run = try parseCommandLine(["--manifest", "list", "--events", "-"], root: Specs.run)
        #expect(run.command == "")
        #expect(run.value("manifest") == "list")
        #expect(run.value("events") == "-")
    }

    @Test func parseCommandLineHelpAndVersion() throws {
        #expect(try parseCommandLine(["check", "--help"], root: Specs.run).wantsHelp)
        #expect(try parseCommandLine(["check", "--help"], root: Specs.run).command == "check")
        #expect(try parseCommandLine(["-h"], root: Specs.run).command == "")
        let version = try parseCommandLine(["--version"], root: Specs.run)
        #expect(version.flag("version") && !version.wantsHelp)
        #expect(throws: UsageError("unknown option '--version' for 'check'")) {
            try parseCommandLine(["check", "--version"], root: Specs.run)
        }
    }

    @Test func parseCommandLineErrorsNameTheSubcommand() {
        #expect(throws: UsageError("'check' needs at least one PLUGIN.so")) {
            try parseCommandLine(["check"], root: Specs.run)
        }
        #expect(throws: UsageError("unknown command 'lst' for 'apphost' (did you mean 'list'?)")) {
            try parseCommandLine(["lst", "--manifest", "m"], root: Specs.run)
        }
    }
}

// MARK: - Help text

@Suite("Help text")
struct HelpTextTests {
    @Test(arguments: [Specs.run, Specs.list, Specs.check])
    func listsEveryOptionWithItsValueName(_ spec: CommandSpec) {
        let text = helpText(for: spec, program: "apphost")
        for option in spec.options {
            let left = option.displayName + (option.valueName.map { " " + $0 } ?? "")
            #expect(text.contains(left), "missing \(left)")
            #expect(text.contains(option.help))
        }
        #expect(text.contains("-h, --help"))
        #expect(text.contains(spec.summary))
        #expect(text.hasSuffix("\n"))
    }

    @Test func usageLineForRoot() {
        let text = helpText(for: Specs.run, program: "apphost")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Usage: apphost --manifest FILE [options]")
        #expect(lines[1] == "       apphost COMMAND [options]")
        #expect(text.contains("Commands:"))
        #expect(text.contains("  list "))
        #expect(text.contains(Specs.check.summary))
        #expect(text.contains("Run 'apphost COMMAND --help' for a command's options."))
        #expect(text.contains("-m, --manifest FILE"))
        #expect(text.contains("The plugin manifest. (required)"))
        #expect(text.contains("Also search DIR for plugins. (repeatable)"))
        #expect(text.contains("--events FILE|-"))
    }

    @Test func usageLineForSubcommand() {
        let text = helpText(for: Specs.check, program: "apphost")
        #expect(text.hasPrefix("Usage: apphost check [options] PLUGIN.so...\n"))
        #expect(text.contains("Arguments:\n  PLUGIN.so"))
        #expect(!text.contains("Commands:"))
        #expect(helpText(for: Specs.one, program: "x").hasPrefix("Usage: x one [options] [FILE]\n"))
    }

    @Test func exactLayout() {
        let spec = CommandSpec(
            name: "demo",
            summary: "Demonstrate.",
            options: [
                .value("out", "FILE", short: "o", help: "Where to write."),
                .flag("quiet", help: "Say less."),
            ],
            positionals: PositionalSpec("INPUT", help: "What to read.", minCount: 1, maxCount: 1)
        )
        #expect(helpText(for: spec, program: "tool") == """
            Usage: tool demo [options] INPUT

            Demonstrate.

            Arguments:
              INPUT           What to read.

            Options:
              -o, --out FILE  Where to write.
                  --quiet     Say less.
              -h, --help      Show this help.

            """)
    }

    @Test func optionsAreAligned() {
        let text = helpText(for: Specs.check, program: "apphost")
        let lines = text.split(separator: "\n").map(String.init)
        let helpColumns = Set(Specs.check.allOptions.map { option -> Int? in
            guard let line = lines.first(where: { $0.contains(option.displayName) }),
                  let range = line.firstRange(of: option.help) else { return nil }
            return line.distance(from: line.startIndex, to: range.lowerBound)
        })
        #expect(helpColumns.count == 1, "help column not aligned: \(helpColumns)")
        #expect(!helpColumns.contains(Int?.none))
    }

    @Test func longLeftCellPutsHelpOnNextLine() {
        let spec = CommandSpec(name: "x", summary: "", options: [
            .value("a-very-long-option-name-indeed", "SOMETHING", help: "Help."),
        ])
        let text = helpText(for: spec, program: "p")
        #expect(text.contains("      --a-very-long-option-name-indeed SOMETHING\n" + String(repeating: " ", count: 32) + "Help.\n"))
    }
}

// MARK: - Internals

@Suite("Internals")
struct InternalTests {
    @Test func specsAreWellFormed() {
        for spec in [Specs.run, Specs.list, Specs.check, Specs.one] {
            #expect(spec.wellFormednessProblems.isEmpty)
        }
    }

    @Test func illFormedSpecsAreCaught() {
        let bad = CommandSpec(name: "bad", summary: "", options: [
            .flag("json", help: ""), .flag("json", help: ""), .flag("--x", help: ""),
            .flag("q", short: "h", help: ""), OptionSpec("r", help: "", required: true),
            .value("s", "S", help: "").with(standalone: true),
        ], positionals: PositionalSpec("F", minCount: 2, maxCount: 1))
        #expect(bad.wellFormednessProblems == [
            "option '--json' declared twice",
            "bad option name '--x'",
            "flag '--r' cannot be required",
            "option '--s' takes a value and cannot be standalone",
            "short option '-h' declared twice",
            "maximum count below minimum for F",
        ])
    }

    @Test(arguments: [("kitten", "sitting", 3), ("manfest", "manifest", 1), ("mainfest", "manifest", 1), ("", "abc", 3), ("same", "same", 0)])
    func editDistances(_ a: String, _ b: String, _ expected: Int) {
        #expect(editDistance(a, b) == expected)
    }

    /// The banded distance agrees with the full one up to its limit, and reads anything past it as
    /// limit + 1, on every pair of a small alphabet's words (swaps, inserts, deletes, all of them).
    @Test func bandedDistanceAgreesWithTheFullOne() {
        var words = [""]
        for length in 1...4 {
            words += words.filter { $0.count == length - 1 }.flatMap { word in ["a", "b", "c"].map { word + $0 } }
        }
        for a in words {
            for b in words {
                let full = editDistance(a, b)
                for limit in 0...3 {
                    #expect(editDistance(a, b, atMost: limit) == min(full, limit + 1), "\(a) \(b) limit \(limit)")
                }
            }
        }
        // A megabyte against a short word: answered without the quadratic table.
        let long = String(repeating: "x", count: 1 << 20)
        #expect(editDistance(long, "openURL", atMost: 2) == 3)
        #expect(editDistance(long, long + "y", atMost: 2) == 1)
        #expect(suggestion(for: long, among: ["openURL", "performFetch"]) == nil)
    }

    @Test func suggestions() {
        #expect(suggestion(for: "jsn", among: ["json", "junit"]) == "json")
        #expect(suggestion(for: "zzzzzz", among: ["json"]) == nil)
        #expect(suggestion(for: "plugin", among: ["plugin-dir", "manifest"]) == "plugin-dir")
        #expect(suggestion(for: "", among: ["json"]) == nil)
    }

    @Test(arguments: [("-", false), ("--", true), ("-5", false), ("-0.5", false), ("-x", true), ("--json", true), ("a", false), ("-.", true)])
    func optionLike(_ token: String, _ expected: Bool) {
        #expect(isOptionLike(token) == expected)
    }
}

private extension OptionSpec {
    func with(standalone: Bool) -> OptionSpec { var copy = self; copy.standalone = standalone; return copy }
}

private extension CommandSpec {
    func with(name: String) -> CommandSpec { var copy = self; copy.name = name; return copy }
    func with(options: [OptionSpec]) -> CommandSpec { var copy = self; copy.options = options; return copy }
    func with(positionals: PositionalSpec?) -> CommandSpec { var copy = self; copy.positionals = positionals; return copy }
}
