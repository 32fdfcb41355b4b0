import SubscriberHost

/// `events.shaped-methods`: every method of a Swift plugin's classes that is named like an event
/// handler is one the SDK calls. A Swift subscriber receives an event only when its type adopts the
/// event's protocol and the method satisfies the requirement exactly; anything else compiles and is
/// silently never called — Expo's `-> Bool` where the requirement says `-> Bool?` (a near miss), or
/// the exact method on a type that does not adopt the protocol. The plugin's symbols are read from
/// the file; the expected handlers come from the event table.
struct EventShapedMethodsCheck: ConformanceCheck {
    let id = "events.shaped-methods"
    let summary = "every method named like an event handler is called (its type adopts the event's protocol, exact signature)"
    let expectation = "every class method named like an event handler has the requirement's exact signature "
        + "and its type adopts the event's protocol"
    let requires = ["load.descriptor"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            guard !image.isCPlugin else {
                return .skip(expected: expectation, found: "a C plugin (swift_version \"\"): no Swift methods to read")
            }
            guard SwiftDemangler.isAvailable else {
                return .skip(expected: expectation, found: "this process's Swift runtime has no swift_demangle to read symbols with")
            }
            environment.progress.step("reading the symbols of \(environment.pluginPath)")
            let scan: EventShapedMethods
            do throws(ELFSymbolsError) {
                // A stripped file keeps only its exported symbols (.dynsym): the plugin's own classes
                // are not among them, so finding nothing would prove nothing.
                let table = try ELFSymbols.read(path: environment.pluginPath).table
                guard table == ".symtab" else {
                    return .skip(expected: expectation, found: "a stripped file (no .symtab, only \(table)): "
                                 + "its classes' methods cannot be read")
                }
                // The plugin is loaded in this child: the runtime names superclasses, so a subclass's
                // inherited adoption counts.
                scan = try PluginSymbolScan.scan(path: environment.pluginPath, expected: ExpectedHandler.all,
                                                 pluginIsLoaded: true)
            } catch {
                return .warn(expected: expectation, found: error.description)
            }
            let findings = scan.findings().map(\.description)
                + Self.unboundHandlers(scan.methods, of: image, in: environment)
            guard findings.isEmpty else {
                return .fail(expected: expectation, found: findings.joined(separator: "; "))
            }
            return .pass(expected: expectation, found: "\(plural(scan.methods.count, "event method")), all adopted")
        }
    }

    /// Exact, adopted handlers whose subscriber still does not respond to their event: a subclass of
    /// a subscriber class that adds an event protocol. The compiler fixed the class's events where its
    /// superclass became a subscriber, so the symbols look right and the vtable has no entry. Checked
    /// on the subscribers named like their type (the default name), made as the host makes them.
    @MainActor static func unboundHandlers(_ methods: [FoundHandlerMethod], of image: LoadedPluginImage,
                                in environment: CheckEnvironment) -> [String] {
        let declared = Set(image.subscriberNames)
        var findings: [String] = []
        let byType = Dictionary(grouping: methods.filter(\.matchesExpected)) { $0.typeName.split(separator: ".").last.map(String.init) ?? $0.typeName }
        for (typeName, handlers) in byType.sorted(by: { $0.key < $1.key }) where declared.contains(typeName) {
            guard let subscriber = environment.makeSubscriber(typeName, of: image) else { continue }
            defer { subscriber.destroy() }
            let responding = Set(subscriber.respondingEvents.map(\.name))
            for handler in handlers where !responding.contains(handler.event) {
                findings.append("\(typeName).\(handler.selector) is never called: \(typeName) adopts the protocol of "
                    + "\(handler.event), but its events were fixed where a superclass declared the subscriber protocol "
                    + "(declare the event protocols there, or make \(typeName) declare InstantiableSubscriber itself)")
            }
        }
        return findings
    }
}
