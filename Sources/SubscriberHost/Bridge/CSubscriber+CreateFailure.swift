extension CSubscriber {
    /// Why a plugin's `create` gave no usable subscriber.
    package enum CreateFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The descriptor's `create` is NULL (the loader's check 8 refuses such a plugin).
        case noCreateFunction
        /// `create` returned NULL for a name.
        case returnedNull
        /// `create` returned a subscriber whose `destroy` is NULL: unusable, since it can never be freed.
        case noDestroy
        /// `create` returned a subscriber whose `struct_size` (`found`) does not reach `destroy`
        /// (`minimum` bytes): its destroy cannot be read, so it is unusable.
        case structTooSmall(found: UInt32, minimum: Int)
        /// `source` (`create`, or `get_extension("adh.scene/1")`) returned a struct the host cannot
        /// read (``VTableCheck``): misaligned, or memory its `struct_size` covers unreadable.
        case unreadableStruct(source: String, expected: String, found: String)

        /// "create returned NULL", "the subscriber has no destroy", …
        package var description: String {
            switch self {
            case .noCreateFunction: "the descriptor has no create"
            case .returnedNull: "create returned NULL"
            case .noDestroy: "the subscriber has no destroy"
            case .structTooSmall(let found, let minimum):
                "the subscriber's struct_size does not reach destroy (expected adh_subscriber.struct_size ≥ \(minimum), "
                    + "found \(found))"
            case .unreadableStruct(let source, let expected, let found):
                "\(source) returned a struct that cannot be read (expected \(expected), found \(found))"
            }
        }
    }
}
