import Foundation
import Testing
@testable import SubscriberConformance

/// A mangled method name whose parameter nests `depth` generic types, each holding the one inside
/// twice: the shape the compiler gives nested generic typealiases (`typealias B1<T> = Box<(B0<T>, B0<T>)>`).
/// The mangling shares each repeated part (a substitution), so the name grows by 8 bytes a level while
/// its demangled text doubles: 28 levels are 280 bytes that print as gigabytes.
func nestedGenericName(depth: Int) -> String {
    func substitution(_ entry: Int) -> String {
        entry < 26 ? "A" + String(UnicodeScalar(UInt8(65 + entry))) : entry == 26 ? "A_" : "A\(entry - 27)_"
    }
    return "$s1M6HelperC26applicationDidBecomeActiveyyAA3BoxV" + String(repeating: "yAF", count: depth - 1) + "ySi_SitG"
        + (0..<(depth - 1)).map { "_" + substitution(6 + $0) + "tG" }.joined() + "F"
}

/// The Swift names the symbol scan demangles, of a file: functions ending "F" or "fD", data ending "Mc".
private func scannedNames(_ path: String) throws -> [String] {
    let symbols = try ELFSymbols.read(path: path)
    return symbols.functions.filter { $0.hasPrefix("$s") && ($0.hasSuffix("F") || $0.hasSuffix("fD")) }
        + symbols.objects.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mc") }
}

@Suite("Symbol scan: the demangling budget")
struct DemangleBudgetTests {
    @Test("the estimate bounds the demangled text of every name of real compiler output, and refuses none of them")
    func boundsRealNames() throws {
        let names = try scannedNames("/proc/self/exe") + scannedNames(Built.plugin("Greeter"))
            + scannedNames(Built.plugin("NotificationFetcher"))
        #expect(names.count > 1_000)
        var largest = 0
        for name in names {
            let estimate = DemangleBudget.estimatedTextSize(of: name)
            largest = max(largest, estimate)
            #expect(estimate <= DemangleBudget.textPerName, "\(name): \(estimate)")
            let text = try #require(SwiftDemangler.demangle(name), "\(name)")
            #expect(text.utf8.count <= estimate, "\(name): \(text.utf8.count) bytes, estimated \(estimate)")
        }
        // Real names stay far below the budget: the margin is what lets odd but real code through.
        #expect(largest < DemangleBudget.textPerName / 2, "\(largest)")
    }

    @Test("nested generic names: the estimate stays above the text as it doubles, and 28 levels (280 bytes) are refused unread")
    func nestedGenerics() throws {
        var deepestRead = 0
        for depth in 2...12 {
            let name = nestedGenericName(depth: depth)
            guard DemangleBudget.estimatedTextSize(of: name) <= DemangleBudget.textPerName else {
                #expect(SwiftDemangler.demangle(name) == nil, "depth \(depth)")
                continue
            }
            let text = try #require(SwiftDemangler.demangle(name), "depth \(depth)")
            #expect(text.hasPrefix("M.Helper.applicationDidBecomeActive(M.Box<(M.Box<"), "\(text.prefix(80))")
            #expect(text.utf8.count <= DemangleBudget.estimatedTextSize(of: name), "depth \(depth)")
            deepestRead = depth
        }
        // Nesting as deep as real code goes is read.
        #expect(deepestRead >= 7)
        let hostile = nestedGenericName(depth: 28)
        #expect(hostile.utf8.count == 280)
        #expect(DemangleBudget.estimatedTextSize(of: hostile) > DemangleBudget.textPerName)
        #expect(SwiftDemangler.demangle(hostile) == nil)
        var budget = DemangleBudget()
        #expect(budget.demangle(hostile) == nil)
        let unread = try #require(budget.unread.first)
        guard case .tooCostly(let estimate) = unread.reason else {
            Issue.record("\(unread.reason)")
            return
        }
        #expect(unread.description == "'\(hostile.prefix(96))…' (280 bytes): its demangled text could reach "
                + "\(ByteCount.text(estimate)), over the budget of 1 MiB a name")
        #expect(budget.spent == 0, "a refused name costs nothing")
    }

    @Test("a file's budget: once spent, the remaining names are listed unread, not demangled")
    func fileBudget() throws {
        let name = nestedGenericName(depth: 4)
        let estimate = DemangleBudget.estimatedTextSize(of: name)
        var budget = DemangleBudget()
        let fits = DemangleBudget.textPerFile / estimate
        for _ in 0..<fits { #expect(budget.demangle(name) != nil) }
        #expect(budget.unread.isEmpty)
        #expect(budget.demangle(name) == nil)
        #expect(budget.demangle(name) == nil)
        #expect(budget.unread.map(\.reason) == [.fileBudgetSpent, .fileBudgetSpent])
        #expect(budget.unread[0].description.hasSuffix(": the file's budget of 64 MiB of demangled text was spent"))
    }

    @Test("names that are too long, or that the runtime cannot read, are unread with the reason; non-Swift names are not listed")
    func otherReasons() {
        var budget = DemangleBudget()
        #expect(budget.demangle("$s" + String(repeating: "1", count: DemangleBudget.nameLengthLimit)) == nil)
        #expect(budget.demangle("$sNotAMangledName") == nil)
        #expect(budget.demangle("adh_plugin_entry") == nil)
        #expect(budget.unread.map(\.reason) == [.tooLong, .notDemangled])
        #expect(budget.unread[1].description == "'$sNotAMangledName' (17 bytes): swift_demangle cannot read it")
    }

    @Test("byte counts read as people write them")
    func byteCounts() {
        #expect(ByteCount.text(280) == "280 bytes")
        #expect(ByteCount.text(256 << 10) == "256 KiB")
        #expect(ByteCount.text(3 << 29) == "1.5 GiB")
    }
}
