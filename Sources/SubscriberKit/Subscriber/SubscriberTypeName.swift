import SubscriberEventModel
import SubscriberValues
/// The default name of a subscriber type: the type's name as written, as `String(describing:)`
/// prints it ("Greeter", "Outer.Inner", "Box<Int>").
///
/// `_typeName` rather than `String(describing:)`: each of the latter's dynamic casts scans the
/// protocol conformances of every loaded image, which made loading N plugins quadratic in N. In an
/// optimised build `_typeName` spells a private type "(Greeter in _49203765…)", also inside a
/// nested or generic name; each such part is cut back to the name.
enum SubscriberTypeName {
    static func of(_ type: Any.Type) -> String {
        var name = _typeName(type, qualified: false)
        while let marker = name.range(of: " in _"),
              let open = name[..<marker.lowerBound].lastIndex(of: "("),
              let close = name[marker.upperBound...].firstIndex(of: ")") {
            let plain = name[name.index(after: open)..<marker.lowerBound]
            name.replaceSubrange(open...close, with: plain)
        }
        return name
    }
}
