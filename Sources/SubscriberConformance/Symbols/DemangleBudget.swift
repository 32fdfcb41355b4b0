import Foundation
import SubscriberKit
import SubscriberEventModel

/// The work the symbol scan may spend demangling one plugin file, and what it could not read.
///
/// `swift_demangle` builds a tree that shares repeated parts (the mangling's substitutions) and then
/// prints it whole: a name of 250 bytes (real compiler output for nested generic typealiases) can
/// print as gigabytes, and the call cannot be interrupted. So the cost of each name is bounded before
/// the call, from the mangled text alone (``estimatedTextSize(of:)``), and names over the budget —
/// per name and per file — are not demangled but reported, by name.
struct DemangleBudget {
    /// The longest name handed to the runtime (handler and descriptor names are a few hundred bytes).
    static let nameLengthLimit = 4_096
    /// The most demangled text one name may produce, by the estimate (which is loose: a hundred
    /// times the real text is common). Real plugins' names stay under 100 KiB of estimate.
    static let textPerName = 1 << 20
    /// The most demangled text (estimated) for all the names of one file: a plugin of thousands of
    /// Swift symbols uses a few MiB of it.
    static let textPerFile = 64 << 20

    /// Why a name was not read.
    enum Reason: Sendable, Hashable {
        /// Longer than ``nameLengthLimit`` bytes.
        case tooLong
        /// Its demangled text could reach this many bytes, over ``textPerName``.
        case tooCostly(Int)
        /// The file's budget (``textPerFile``) was spent before this name.
        case fileBudgetSpent
        /// The runtime handed the name back unchanged: it cannot read it.
        case notDemangled
        /// Demangled, but its text (this many bytes) is too long to be parsed as a declaration.
        case textTooLong(Int)
    }

    /// A name the scan did not read, and why.
    struct Unread: Sendable, Hashable, CustomStringConvertible {
        /// The mangled name.
        let name: String
        /// Why it was not read.
        let reason: Reason

        /// "'$s1M6HelperC…' (280 bytes): its demangled text could reach 5.4 GB, over the budget of
        /// 256 KiB a name": the name (its start, escaped) and why.
        var description: String {
            let length = name.utf8.count
            let shown = "'" + ControlCharacters.escaped(length > 96 ? String(name.prefix(96)) + "…" : name) + "' (\(length) bytes)"
            switch reason {
            case .tooLong:
                return shown + ": longer than the \(DemangleBudget.nameLengthLimit) bytes a name may have"
            case .tooCostly(let estimate):
                return shown + ": its demangled text could reach \(ByteCount.text(estimate)), over the budget of "
                    + "\(ByteCount.text(DemangleBudget.textPerName)) a name"
            case .fileBudgetSpent:
                return shown + ": the file's budget of \(ByteCount.text(DemangleBudget.textPerFile)) of demangled text was spent"
            case .notDemangled:
                return shown + ": swift_demangle cannot read it"
            case .textTooLong(let count):
                return shown + ": its demangled text of \(ByteCount.text(count)) is too long to be a declaration"
            }
        }
    }

    /// Estimated text demangled so far.
    private(set) var spent = 0
    /// The names not read, in the order met.
    private(set) var unread: [Unread] = []

    /// The demangled text of `mangled` when its cost fits the budgets; nil (and, unless the name is
    /// no Swift symbol at all, an ``Unread`` entry) otherwise.
    mutating func demangle(_ mangled: String) -> String? {
        guard mangled.hasPrefix("$s") else { return nil }
        guard mangled.utf8.count <= Self.nameLengthLimit else {
            unread.append(Unread(name: mangled, reason: .tooLong))
            return nil
        }
        let estimate = Self.estimatedTextSize(of: mangled)
        guard estimate <= Self.textPerName else {
            unread.append(Unread(name: mangled, reason: .tooCostly(estimate)))
            return nil
        }
        guard spent + estimate <= Self.textPerFile else {
            unread.append(Unread(name: mangled, reason: .fileBudgetSpent))
            return nil
        }
        spent += estimate
        guard let text = SwiftDemangler.demangle(mangled) else {
            unread.append(Unread(name: mangled, reason: .notDemangled))
            return nil
        }
        return text
    }

    /// An upper bound of the length of `mangled`'s demangled text, computed from the mangled text in
    /// one pass, without demangling it (saturating at `Int.max / 4`).
    ///
    /// Each character that is not part of an identifier prints as at most ``operatorWidth`` bytes
    /// ("protocol conformance descriptor for " is two); an identifier prints as itself (punycode at
    /// most 4 bytes a character; a word substitution as at most the longest identifier so far). A
    /// substitution (`A` + indices, Swift's mangling grammar) prints a part already built, which is
    /// at most the whole text so far at the moment that part was first referred to: parts are built
    /// in order and never after their first use. So each first reference may double the bound, and
    /// later references to the same part add the size bounded then. Names of real plugins stay
    /// within a few hundred times their length; a name whose parts nest repeatedly grows as 2ⁿ.
    static func estimatedTextSize(of mangled: String) -> Int {
        let bytes = Array(mangled.utf8)
        let ceiling = Int.max / 4
        var index = bytes.starts(with: Array("$s".utf8)) ? 2 : 0
        var total = 2 * operatorWidth
        var longestIdentifier = 0
        // The bound of each substitution entry, fixed when it is first referred to.
        var entryBound: [Int: Int] = [:]

        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        /// The natural number at `index` (nil when there is none), moving past it; saturates.
        func natural() -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, isDigit(bytes[index]) {
                value = min(ceiling, value * 10 + Int(bytes[index] - UInt8(ascii: "0")))
                index += 1
            }
            return index == start ? nil : value
        }
        func add(_ amount: Int) { total = min(ceiling, total + min(ceiling, amount)) }
        func reference(_ entry: Int, times: Int) {
            let bound = entryBound[entry] ?? total
            entryBound[entry] = bound
            add(bound.multipliedReportingOverflow(by: max(1, times)).overflow ? ceiling : bound * max(1, times))
        }

        while index < bytes.count, total < ceiling {
            let byte = bytes[index]
            if byte == UInt8(ascii: "0") {
                // An identifier with word substitutions ("0" …) or in punycode ("00" …).
                index += 1
                let punycode = index < bytes.count && bytes[index] == UInt8(ascii: "0")
                if punycode { index += 1 }
                var words = !punycode
                repeat {
                    while words, index < bytes.count, isLower(bytes[index]) || isUpper(bytes[index]) {
                        if isUpper(bytes[index]) { words = false }
                        add(longestIdentifier + 1)
                        index += 1
                    }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
                        index += 1
                        break
                    }
                    guard let length = natural() else { break }
                    let taken = min(length, bytes.count - index)
                    add(punycode ? 4 * taken : taken + 1)
                    longestIdentifier = max(longestIdentifier, taken)
                    index += taken
                } while words
            } else if isDigit(byte) {
                // An identifier: its length, then itself.
                let length = natural() ?? 0
                let taken = min(length, bytes.count - index)
                add(taken + 1)
                longestIdentifier = max(longestIdentifier, taken)
                index += taken
            } else if byte == UInt8(ascii: "A") {
                // A substitution: "A_" / "A<n>_" (entry 26 / n + 27), or one or more entries "A[n]a…[n]Z"
                // (each letter an entry, an optional count before it repeating it).
                index += 1
                let start = index
                if let number = natural(), index < bytes.count, bytes[index] == UInt8(ascii: "_") {
                    index += 1
                    reference(number + 27, times: 1)
                    continue
                }
                if index < bytes.count, index == start, bytes[index] == UInt8(ascii: "_") {
                    index += 1
                    reference(26, times: 1)
                    continue
                }
                index = start
                while index < bytes.count {
                    let times = natural() ?? 1
                    guard index < bytes.count, isLower(bytes[index]) || isUpper(bytes[index]) else { break }
                    let letter = bytes[index]
                    index += 1
                    reference(Int(letter | 0x20) - Int(UInt8(ascii: "a")), times: times)
                    if isUpper(letter) { break }
                }
            } else if byte == UInt8(ascii: "S"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
                // A known type repeated: "S<n>[c]<kind>".
                index += 1
                let times = natural() ?? 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "c") { index += 1 }
                index += 1
                add(times.multipliedReportingOverflow(by: operatorWidth).overflow ? ceiling : times * operatorWidth)
            } else {
                add(operatorWidth)
                index += 1
            }
        }
        return total
    }

    /// The most text one character of the mangling that is no identifier prints as, with margin.
    static let operatorWidth = 64
}

/// Byte counts as people read them.
enum ByteCount {
    /// "280 bytes", "256 KiB", "5.4 GiB".
    static func text(_ count: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        guard count >= 1_024 else { return "\(count) bytes" }
        var value = Double(count) / 1_024
        var unit = 0
        while value >= 1_024 && unit < units.count - 1 {
            value /= 1_024
            unit += 1
        }
        let rounded = value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)
        return rounded + " " + units[unit]
    }
}
