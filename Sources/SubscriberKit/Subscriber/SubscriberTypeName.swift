/// The default name of a subscriber type: the type's name as written, as `String(describing:)`
/// prints it ("Greeter", "Outer.Inner", "Box<Int>").
///
/// `_typeName` rather than `String(describing:)`: each of the latter's dynamic casts scans the
/// protocol conformances of every loaded image, which made loading N plugins quadratic in N. In an
/// optimised build `_typeName` spells a private type "(Greeter in _49203765…)"; that is cut back to
/// the name.
enum SubscriberTypeName {
    static func of(_ type: Any.Type) -> String {
        let name = _typeName(type, qualified: false)
        guard name.hasPrefix("("), let end = name.range(of: " in _") else { return name }
        return String(name[name.index(after: name.startIndex)..<end.lowerBound])
    }
}
