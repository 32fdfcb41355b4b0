/// An instance method of a class in a plugin whose selector is an event handler's: it either is the
/// handler the SDK calls (``matchesExpected``) or looks like it and is not (a near miss).
struct FoundHandlerMethod: Sendable, Hashable {
    /// The class, as demangled and module-qualified, e.g. "Greeter.Greeter".
    let typeName: String
    /// The event whose handler's selector this method has, e.g. "openURL".
    let event: String
    /// The method's selector, e.g. "application(_:open:options:)".
    let selector: String
    /// The method's whole demangled symbol, e.g. "Greeter.Greeter.application(_: SubscriberKit.Application,
    /// open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool?".
    let demangledSignature: String
    /// Whether parameter types, effects and result type equal the handler's (module qualifiers aside).
    let matchesExpected: Bool
    /// The parameter types as demangled, in order.
    let parameterTypes: [String]
    /// The result type as demangled ("()" for none).
    let returnType: String
    /// "async", "throws", … or "" (between the parameter list and the arrow).
    let effects: String
}
