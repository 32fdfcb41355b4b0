/// UIInterfaceOrientationMask: the interface orientations an app supports. Bits are UIKit's and
/// the C header's (`ADH_ORIENTATION_*`).
///
/// A set of orientations, written as UIKit's is (`[.portrait, .landscapeLeft]`, `[]`), with the set
/// operations a subscriber needs; not an `OptionSet`, whose `SetAlgebra` members would be most of
/// what plugin authors see.
public struct InterfaceOrientationMask: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The bits, as the C header's `ADH_ORIENTATION_*`.
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The orientations of `elements` together.
    public init(arrayLiteral elements: InterfaceOrientationMask...) {
        rawValue = elements.reduce(0) { $0 | $1.rawValue }
    }

    /// Whether every orientation of `other` is in this mask.
    public func contains(_ other: InterfaceOrientationMask) -> Bool { rawValue & other.rawValue == other.rawValue }
    /// The orientations in this mask or in `other`.
    public func union(_ other: InterfaceOrientationMask) -> InterfaceOrientationMask { Self(rawValue: rawValue | other.rawValue) }
    /// The orientations in both this mask and `other`.
    public func intersection(_ other: InterfaceOrientationMask) -> InterfaceOrientationMask { Self(rawValue: rawValue & other.rawValue) }
    /// Whether the mask holds no orientation.
    public var isEmpty: Bool { rawValue == 0 }
    /// Adds the orientations of `other`.
    package mutating func insert(_ other: InterfaceOrientationMask) { self = union(other) }

    /// UIInterfaceOrientationMask.portrait.

    public static let portrait = InterfaceOrientationMask(rawValue: 1 << 1)
    /// UIInterfaceOrientationMask.portraitUpsideDown.
    public static let portraitUpsideDown = InterfaceOrientationMask(rawValue: 1 << 2)
    /// UIInterfaceOrientationMask.landscapeRight.
    public static let landscapeRight = InterfaceOrientationMask(rawValue: 1 << 3)
    /// UIInterfaceOrientationMask.landscapeLeft.
    public static let landscapeLeft = InterfaceOrientationMask(rawValue: 1 << 4)
    /// Both landscape orientations.
    public static let landscape: InterfaceOrientationMask = [.landscapeLeft, .landscapeRight]
    /// Every orientation but upside down (the phone default).
    public static let allButUpsideDown: InterfaceOrientationMask = [.portrait, .landscapeLeft, .landscapeRight]
    /// Every orientation (the pad default).
    public static let all: InterfaceOrientationMask = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]

    /// Each single orientation with its Info.plist-style name, in UIKit's order.
    package static let named: [(name: String, mask: InterfaceOrientationMask)] = [
        ("portrait", .portrait), ("portraitUpsideDown", .portraitUpsideDown),
        ("landscapeLeft", .landscapeLeft), ("landscapeRight", .landscapeRight),
    ]

    /// The names of the orientations in this mask, in UIKit's order.
    public var names: [String] { Self.named.filter { contains($0.mask) }.map(\.name) }

    /// The mask of the named orientations; nil names the first unknown one through `unknown`.
    public init?(names: [String], unknown: ((String) -> Void)? = nil) {
        var mask: InterfaceOrientationMask = []
        for name in names {
            guard let match = Self.named.first(where: { $0.name == name }) else {
                unknown?(name)
                return nil
            }
            mask = mask.union(match.mask)
        }
        self = mask
    }

    public var description: String { "[" + names.joined(separator: ", ") + "]" }
}

/// UIUserInterfaceIdiom: the kind of device. Raw values are UIKit's and the C header's.
public enum UserInterfaceIdiom: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// UIUserInterfaceIdiom.unspecified.
    case unspecified
    /// A phone.
    case phone
    /// A pad (the manifest's `~ipad` orientations).
    case pad
    /// A TV.
    case tv
    /// CarPlay.
    case carPlay
    /// A Mac.
    case mac
    /// Vision.
    case vision

    /// The name used in manifests and event scripts ("phone", "pad", …).
    package var name: String {
        switch self {
        case .unspecified: "unspecified"
        case .phone: "phone"
        case .pad: "pad"
        case .tv: "tv"
        case .carPlay: "carPlay"
        case .mac: "mac"
        case .vision: "vision"
        }
    }

    /// The idiom named `name`, or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The idiom whose name is `bytes` (UTF-8), or nil: ``init(name:)`` without a `String` made (a
    /// script line's idiom read from its bytes).
    package init?(name bytes: ArraySlice<UInt8>) {
        guard let match = Self.namesAsBytes.first(where: { $0.name.elementsEqual(bytes) }) else { return nil }
        self = match.idiom
    }

    /// Every idiom with its name's bytes, made once (`allCases` is an array made at each use).
    private static let namesAsBytes = allCases.map { (idiom: $0, name: Array($0.name.utf8)) }

    /// UIKit's value, and the C header's (`ADH_IDIOM_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .unspecified: -1
        case .phone: 0
        case .pad: 1
        case .tv: 2
        case .carPlay: 3
        case .mac: 5
        case .vision: 6
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case -1: self = .unspecified
        case 0: self = .phone
        case 1: self = .pad
        case 2: self = .tv
        case 3: self = .carPlay
        case 5: self = .mac
        case 6: self = .vision
        default: return nil
        }
    }

    public var description: String { name }
}
