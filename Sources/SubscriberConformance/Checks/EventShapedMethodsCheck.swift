import SubscriberHost

/// `events.shaped-methods`: every method of a Swift plugin's subscriber classes that is named like an
/// event handler is one the SDK calls. A Swift subscriber receives an event only when the class that
/// declares its subscriber protocol adopts the event's protocol and the method satisfies the
/// requirement exactly; anything else compiles and is silently never called — Expo's `-> Bool` where
/// the requirement says `-> Bool?` (a near miss), the exact method on a subscriber that does not adopt
/// the protocol, or on a subclass whose events were fixed at its superclass. Classes that are no
/// subscriber are not judged. The plugin's symbols are read from the file; the expected handlers come
/// from the event table.
///
/// The check cannot see methods the compiler did not keep: a stripped file, or an optimised build
/// (which inlines or removes methods nothing calls — the very ones looked for). Then it warns and
/// says to run it on a debug build; it never passes on what it could not see. Names it could not
/// demangle within its budget are warnings too, each named.
struct EventShapedMethodsCheck: ConformanceCheck {
    let id = "events.shaped-methods"
    let summary = "every method named like an event handler is called (its type adopts the event's protocol, exact signature)"
    let expectation = "every method of a subscriber class named like an event handler has the requirement's exact "
        + "signature, and the class where the subscriber's events are fixed adopts the event's protocol"
    let requires = ["load.descriptor"]

    /// What a warning asks the author to do.
    static let debugBuildAdvice = "run the check on a debug build, not stripped (swift build; apphost check .build/debug/lib….so)"
    /// At most this many lines of one kind are listed (the rest counted).
    static let listedLimit = 20

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            guard !image.isCPlugin else {
                return .skip(expected: expectation, found: "a C plugin (swift_version \"\"): no Swift methods to read")
            }
            guard SwiftDemangler.isAvailable else {
                return .warn(expected: expectation, found: "cannot see the plugin's methods: this process's Swift runtime "
                             + "has no swift_demangle to read symbols with")
            }
            environment.progress.step("reading the symbols of \(environment.pluginPath)")
            let symbols: ELFSymbols
            do throws(ELFSymbolsError) {
                symbols = try ELFSymbols.read(path: environment.pluginPath)
            } catch {
                return .warn(expected: expectation, found: "cannot see the plugin's methods: " + error.description)
            }
            // A stripped file keeps only its exported symbols (.dynsym): the plugin's own classes
            // are not among them, so finding nothing would prove nothing.
            guard symbols.table == ".symtab" else {
                return .warn(expected: expectation, found: "cannot see the plugin's methods: a stripped file (no .symtab, "
                             + "only \(symbols.table)) keeps none of its classes' methods; \(Self.debugBuildAdvice)")
            }
            environment.progress.step("demangling and matching the symbols of \(environment.pluginPath)")
            // The plugin is loaded in this child: the runtime names superclasses, so a subclass's
            // inherited subscriber protocol and adoptions count.
            let scan = PluginSymbolScan.scan(symbols, expected: ExpectedHandler.all, pluginIsLoaded: true)
            return Self.verdict(scan, optimised: !symbols.neededLibraries.contains(Self.ononeSupport),
                                expected: expectation)
        }
    }

    /// The library every Swift image built without optimisation (`-Onone`) needs.
    static let ononeSupport = "libswiftSwiftOnoneSupport.so"

    /// The verdict on `scan`: fail with one line per method never called; otherwise warn when the
    /// symbols cannot show everything (an optimised build, handlers missing from the symbols, names not
    /// read); pass. Blind spots are listed under the findings of a failure too.
    static func verdict(_ scan: EventShapedMethods, optimised: Bool, expected: String) -> Verdict {
        let findings = scan.findings().map(\.description)
        var blind: [String] = []
        if optimised {
            blind.append("an optimised build (it does not link \(ononeSupport)): the optimiser inlines or removes "
                         + "methods nothing calls, the very ones this check looks for")
        }
        let hidden = scan.handlersNotInSymbols()
        blind += listed(hidden.map { type, handler in
            let name = SwiftTypeText.withoutModule(type)
            return "\(name) adopts \(handler.protocolName), but no \(name).\(handler.selector) is among the file's "
                + "symbols (inlined or removed)"
        }, noun: "adopted handler")
        if !scan.unread.isEmpty {
            blind.append("\(plural(scan.unread.count, "symbol")) not read within the demangling budget (the others were):")
            blind += listed(scan.unread.map { "  " + $0.description }, noun: "symbol")
        }
        let blindText = blind.isEmpty ? [] : ["cannot see every method: " + blind[0]] + blind.dropFirst()
        // A debug build shows what the optimiser hid; it does not change what the budget refused.
        let advice = optimised || !hidden.isEmpty ? [Self.debugBuildAdvice] : []
        if !findings.isEmpty {
            return .fail(expected: expected, found: (listed(findings, noun: "method") + blindText + advice).joined(separator: "\n"))
        }
        if !blind.isEmpty {
            return .warn(expected: expected, found: (blindText + advice).joined(separator: "\n"))
        }
        return .pass(expected: expected, found: "\(plural(scan.methods.count, "event method")), all adopted")
    }

    /// The first ``listedLimit`` of `lines`, and a line counting the rest.
    private static func listed(_ lines: [String], noun: String) -> [String] {
        guard lines.count > listedLimit else { return lines }
        return Array(lines.prefix(listedLimit)) + ["… and \(plural(lines.count - listedLimit, "more \(noun)"))"]
    }
}
