/// An event handler as the SDK declares it, for comparing against the methods a plugin defines: the
/// event, the protocol a subscriber type adopts to receive it, and the requirement's signature both as
/// Swift source text (for messages) and as demangled types (for comparing).
struct ExpectedHandler: Sendable, Hashable {
    /// The event's wire name, e.g. "openURL".
    let event: String
    /// The protocol a subscriber adopts to receive the event, unqualified, e.g. "OpenURLSubscriber".
    let protocolName: String
    /// The requirement's selector: base name and argument labels, e.g. "application(_:open:options:)".
    let selector: String
    /// The requirement as declared, e.g. "func application(_ application: Application, open url: URL,
    /// options: OpenURLOptions) -> Bool?", quoted in messages.
    let signature: String
    /// The parameter types as the demangler prints them, module-qualified, e.g.
    /// ["SubscriberValues.Application", "FoundationEssentials.URL", "SubscriberValues.OpenURLOptions"].
    let parameterTypes: [String]
    /// The result type as the demangler prints it: "Swift.Bool?" and "Swift.Optional<Swift.Bool>" are
    /// the same; "()" or "Swift.Void" for none.
    let returnType: String

    /// "async", "throws", "async throws" or "" as written between the parameter list and the arrow of
    /// ``signature``: a method must have the same effects to satisfy the requirement.
    var effects: String { SwiftTypeText.effects(ofDeclaration: signature) }
}
