/// A method of a plugin's class that looks like an event handler and is never called, with the reason
/// and a message for the plugin's author.
struct UnreachableHandler: Sendable, Hashable, CustomStringConvertible {
    /// Why the SDK never calls the method.
    enum Reason: Sendable, Hashable {
        /// The handler's selector with another signature (types, effects or result).
        case nearMiss
        /// The handler's exact signature on a type that does not adopt the event's protocol.
        case notAdopted
    }

    /// The method found.
    let method: FoundHandlerMethod
    /// The handler it was taken for.
    let expected: ExpectedHandler
    /// Why it is never called.
    let reason: Reason

    /// One line, e.g. "NearMiss.application(_:open:options:) -> Bool is never called: openURL is
    /// delivered to func application(_ application: Application, open url: URL, options: OpenURLOptions)
    /// -> Bool? of OpenURLSubscriber", or "Greeter.applicationDidBecomeActive(_:) is never called:
    /// Greeter does not adopt DidBecomeActiveSubscriber".
    var description: String {
        let type = SwiftTypeText.withoutModule(method.typeName)
        switch reason {
        case .nearMiss:
            return "\(type).\(shape) is never called: \(expected.event) is delivered to \(expected.signature) "
                + "of \(expected.protocolName)"
        case .notAdopted:
            return "\(type).\(method.selector) is never called: \(type) does not adopt \(expected.protocolName)"
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
