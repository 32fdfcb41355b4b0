/// The help for `spec`, ending in a newline:
///
/// ```
/// Usage: apphost check [options] PLUGIN.so...
///
/// Run the conformance kit against plugins.
///
/// Arguments:
///   PLUGIN.so...           Plugin libraries to check.
///
/// Options:
///       --json             Print results as JSON.
///       --junit FILE       Write a JUnit report to FILE.
///   -h, --help             Show this help.
/// ```
///
/// Required options appear in the usage line; required and repeatable ones are marked in the
/// table. A root with subcommands also lists them, with a pointer to each one's `--help`.
///
/// - Parameter program: the program's name, e.g. `apphost`.
package func helpText(for spec: CommandSpec, program: String = "apphost") -> String {
    let invocation = spec.name.isEmpty ? program : "\(program) \(spec.name)"
    var usage = [invocation]
    usage += spec.options.filter(\.required).map { "\($0.displayName) \($0.valueName ?? "")" }
    usage.append("[options]")
    if let positionals = spec.positionals { usage.append(usagePattern(positionals)) }

    var sections: [(title: String, rows: [(left: String, help: String)])] = []
    if let positionals = spec.positionals, !positionals.help.isEmpty {
        sections.append(("Arguments:", [(usagePattern(positionals, bracketed: false), positionals.help)]))
    }
    if !spec.subcommands.isEmpty {
        sections.append(("Commands:", spec.subcommands.map { ($0.name, $0.summary) }))
    }
    sections.append(("Options:", spec.allOptions.map { option in
        let short = option.short.map { "-\($0), " } ?? "    "
        let value = option.valueName.map { " " + $0 } ?? ""
        var help = option.help
        if option.required { help += " (required)" }
        if option.repeatable { help += " (repeatable)" }
        return (short + option.displayName + value, help)
    }))

    var lines = ["Usage: " + usage.joined(separator: " ")]
    if !spec.subcommands.isEmpty {
        lines.append("       \(invocation) COMMAND [options]")
    }
    if !spec.summary.isEmpty { lines += ["", spec.summary] }
    let widest = sections.flatMap(\.rows).map(\.left.count).max() ?? 0
    let column = min(widest, 28) + 4
    for section in sections {
        lines += ["", section.title] + table(section.rows, column: column)
    }
    if !spec.subcommands.isEmpty {
        lines += ["", "Run '\(invocation) COMMAND --help' for a command's options."]
    }
    return lines.joined(separator: "\n") + "\n"
}

/// How the positionals read in a usage line: `FILE`, `[FILE]`, `PLUGIN.so...`, `[PLUGIN.so...]`.
private func usagePattern(_ positionals: PositionalSpec, bracketed: Bool = true) -> String {
    var pattern = positionals.name
    if positionals.maxCount != 1 { pattern += "..." }
    return bracketed && positionals.minCount == 0 ? "[\(pattern)]" : pattern
}

/// Rows indented by two spaces, help starting at `column`. A left cell too wide for the column
/// puts its help on the next line; a help text's own line breaks are kept, aligned.
private func table(_ rows: [(left: String, help: String)], column: Int) -> [String] {
    var lines: [String] = []
    for row in rows {
        let left = "  " + row.left
        var helpLines = row.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if helpLines.first?.isEmpty ?? true { helpLines = [] }
        if left.count + 2 > column, !helpLines.isEmpty {
            lines.append(left)
        } else {
            let first = helpLines.isEmpty ? "" : helpLines.removeFirst()
            let padded = left + String(repeating: " ", count: column - left.count) + first
            lines.append(first.isEmpty ? left : padded)
        }
        lines += helpLines.map { String(repeating: " ", count: column) + $0 }
    }
    return lines
}
