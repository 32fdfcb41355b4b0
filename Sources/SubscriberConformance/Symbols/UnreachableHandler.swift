/// A method of a plugin's subscriber class that looks like an event handler and is never called,
/// with the reason and a one-line message for the plugin's author: the type, the method, what is
/// wrong and the fix.
struct UnreachableHandler: Sendable, Hashable, CustomStringConvertible {
    /// Why the SDK never calls the method.
    enum Reason: Sendable, Hashable {
        /// The handler's selector with another signature (types, effects or result). `root` is the
        /// class where the subscriber's events are fixed; `adopted`, whether it adopts the event's
        /// protocol.
        case nearMiss(root: String, adopted: Bool)
        /// The handler's exact signature on the class that declares the subscriber protocol, which
        /// does not adopt the event's protocol.
        case notAdopted
        /// The handler's exact signature on a subclass whose events were fixed at superclass `root`,
        /// which does not adopt the event's protocol; `typeAdopts`: the subclass adopts it itself.
        case fixedAtSuperclass(root: String, typeAdopts: Bool)
    }

    /// The method found.
    let method: FoundHandlerMethod
    /// The handler it was taken for.
    let expected: ExpectedHandler
    /// Why it is never called.
    let reason: Reason

    /// One line, e.g. "NearMiss.application(_:open:options:) -> Bool is never called: openURL is
    /// delivered to func application(_ application: Application, open url: URL, options: OpenURLOptions)
    /// -> Bool? of OpenURLSubscriber. Fix: declare it exactly so, and adopt OpenURLSubscriber on
    /// NearMiss", or "Greeter.applicationDidBecomeActive(_:) is never called: Greeter does not adopt
    /// DidBecomeActiveSubscriber. Fix: add DidBecomeActiveSubscriber to Greeter's conformances".
    var description: String {
        let type = SwiftTypeText.withoutModule(method.typeName)
        let protocolName = expected.protocolName
        switch reason {
        case .nearMiss(let root, let adopted):
            var fix = "declare it exactly so"
            if !adopted {
                let rootName = SwiftTypeText.withoutModule(root)
                fix += root == method.typeName ? ", and adopt \(protocolName) on \(type)"
                    : ", and adopt \(protocolName) on \(rootName), where \(type)'s events are fixed"
            }
            return "\(type).\(shape) is never called: \(expected.event) is delivered to \(expected.signature) "
                + "of \(protocolName). Fix: \(fix)"
        case .notAdopted:
            return "\(type).\(method.selector) is never called: \(type) does not adopt \(protocolName). "
                + "Fix: add \(protocolName) to \(type)'s conformances"
        case .fixedAtSuperclass(let root, let typeAdopts):
            let rootName = SwiftTypeText.withoutModule(root)
            let fixed = "its events were fixed at its superclass \(rootName), which declares the subscriber protocol "
                + "and does not adopt \(protocolName)"
            let why = typeAdopts ? "\(type) adopts \(protocolName), but " + fixed : fixed
            return "\(type).\(method.selector) is never called: \(why). Fix: adopt \(protocolName) on \(rootName)"
        }
    }

    /// The method as the message shows it: its selector when only effects or result differ from the
    /// handler's ("application(_:open:options:) -> Bool"), else its parameters with their types too
    /// ("application(_: Application, open: String, options: OpenURLOptions) -> Bool?"); types without
    /// their modules.
    private var shape: String {
        let sameParameters = method.parameterTypes.count == expected.parameterTypes.count
            && zip(method.parameterTypes, expected.parameterTypes).allSatisfy(SwiftTypeText.sameType)
        var text: String
        if sameParameters {
            text = method.selector
        } else {
            let labels = method.selector.drop { $0 != "(" }.dropFirst().split(separator: ":").map(String.init)
            let parameters = zip(labels, method.parameterTypes).map { "\($0): \(SwiftTypeText.lenient($1))" }
            text = String(method.selector.prefix { $0 != "(" }) + "(" + parameters.joined(separator: ", ") + ")"
        }
        if !method.effects.isEmpty { text += " " + method.effects }
        let result = SwiftTypeText.lenient(method.returnType)
        if result != "()" { text += " -> " + result }
        return text
    }
}
