/// Why the symbol table of a plugin file could not be read: the file, the part of it that is wrong,
/// what was expected there and what was found. Its description is one line.
struct ELFSymbolsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that was read.
    let path: String
    /// The part of the file that is wrong ("ELF header", "section header 12", "the symbol table", …).
    let what: String
    /// What that part should have been.
    let expected: String
    /// What it was.
    let found: String

    var description: String {
        "plugin \"\(path)\": cannot read its symbols: \(what): expected \(expected), found \(found)"
    }
}
