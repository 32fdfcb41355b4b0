import SubscriberABI
import SubscriberValues

/// What varies with the arguments of an event, in one type per *shape*: the launch events share
/// ``LaunchArguments``, three events carry one string (``TextArgument``), and so on. A shape owns
/// every form its value takes — the Swift value subscribers receive, the C arguments of a vtable
/// entry (encoded by the host, decoded by the SDK), the keys of an event-script line (read and
/// written: scripts, and anything else that sends events as JSON), a summary for output — and the
/// conformance kit's canonical and fuzzed inputs. An event row names its shape; nothing else
/// switches over shapes.
///
/// Shapes are types with static members only: a row is generic over its shapes, so the code that
/// calls subscribers is specialized for them (see EventRow.swift).
package protocol ArgumentShape: Sendable {
    /// The arguments as subscribers receive them (besides the application).
    associatedtype Value: Sendable & Hashable
    /// What a vtable entry takes after `self`: a payload pointer, a string, a pair, or `()`.
    associatedtype CArguments
    /// The C arguments of one value with the memory they point into: valid as long as this lives.
    associatedtype Encoded
    /// What one row tells its shape (a text argument's script key and default); `Void` for most.
    associatedtype Spec: Sendable = Void

    // MARK: Event scripts and JSON

    /// Reads the arguments from an event-script object (docs/cli.md), through `reader`; the caller
    /// rejects the keys nobody read. Errors name the key path.
    static func read(_ reader: inout JSONObjectReader, spec: Spec) throws(JSONShapeError) -> Value
    /// Writes `value` as the keys ``read(_:spec:)`` reads.
    static func write(_ value: Value, spec: Spec, into object: inout JSONObject)
    /// `value` in a few words for an event's heading (`news://article/7`, `pad`); nil for none.
    static func summary(_ value: Value) -> String?

    // MARK: The C arguments, both ways

    /// `value` as C arguments, with `context`'s serial on its payload (if it has one).
    static func encode(_ value: Value, _ context: EncodingContext) -> Encoded
    /// The C arguments of `encoded`, valid while `encoded` lives.
    static func cArguments(_ encoded: Encoded) -> CArguments
    /// The value C arguments carry, as a plugin receives them. Anything that cannot be read is named
    /// in `problems` and read as absent; nil when the value cannot be delivered at all (a NULL payload,
    /// an open-URL request without an absolute URL).
    static func decode(_ arguments: CArguments, problems: inout [String]) -> Value?
    /// The payload's serial (equal payloads share one, adh/payloads.h); 0: not cacheable.
    static func serial(of arguments: CArguments) -> UInt64
    /// What the C arguments tell about the application beyond the value (how it was launched).
    static func update(_ application: inout Application, from arguments: CArguments)
    /// Whether ``update(_:from:)`` does anything (only then does the SDK call it).
    static var updatesApplication: Bool { get }
    /// How the app was launched, for arguments that say: launch options always; a notification
    /// response while the app launches (the host applies it only then). Nil for the others.
    static func launchInvocation(of value: Value) -> LaunchInvocation?
    /// Whether a call with these arguments may have changed how the host classifies the launch, so
    /// that the SDK asks the host again (a notification response).
    static var readsLaunchInvocation: Bool { get }

    // MARK: Scenes

    /// The scene a call of a scene event names; nil for every other shape.
    static func scene(of value: Value) -> SceneReference?
    /// `value` naming `scene` instead: the host completes what a call leaves out (the role it
    /// connected with, the activation state during the call).
    static func value(_ value: Value, naming scene: SceneReference) -> Value

    // MARK: The conformance kit's inputs

    /// Ordinary arguments, one per variant a real app sends.
    static func canonical(spec: Spec) -> [Value]
    /// Hostile C arguments drawn from `draw`, each field under its script key.
    static func fuzzed(_ draw: inout some FuzzDraw, spec: Spec, serial: UInt64) -> Encoded
}

extension ArgumentShape {
    package static func serial(of arguments: CArguments) -> UInt64 { 0 }
    package static func update(_ application: inout Application, from arguments: CArguments) {}
    package static var updatesApplication: Bool { false }
    package static func launchInvocation(of value: Value) -> LaunchInvocation? { nil }
    package static var readsLaunchInvocation: Bool { false }
    package static func summary(_ value: Value) -> String? { nil }
    package static func scene(of value: Value) -> SceneReference? { nil }
    package static func value(_ value: Value, naming scene: SceneReference) -> Value { value }
}

/// What encoding a value may need besides it: the serial its payload gets, and how the app was
/// launched (a launch payload carries it). Not the whole `Application`: copying it into every
/// event's context and destroying it cost about 230 instructions an event.
package struct EncodingContext {
    /// Non-zero for a payload that may be cached by serial (one per dispatched event).
    package var serial: UInt64
    /// How the application the event is delivered to was launched, when known.
    package var launchInvocation: LaunchInvocation?

    package init(serial: UInt64, launchInvocation: LaunchInvocation?) {
        self.serial = serial
        self.launchInvocation = launchInvocation
    }

    package init(serial: UInt64, application: Application) {
        self.init(serial: serial, launchInvocation: application.launchInvocation)
    }
}

/// The value of an event without arguments.
package struct NoValue: Sendable, Hashable {
    package init() {}
}

/// Where the conformance kit's hostile values come from: strings of any bytes (huge, invalid UTF-8,
/// NUL inside), unusual JSON, any 32-bit value. Each field is named by its script key, so that a
/// crash names the input that caused it.
package protocol FuzzDraw {
    mutating func text(_ field: String, url: Bool) -> [UInt8]
    mutating func optionalText(_ field: String, url: Bool) -> [UInt8]?
    mutating func jsonObject(_ field: String) -> [UInt8]
    mutating func optionalJSONObject(_ field: String) -> [UInt8]?
    mutating func jsonValue(_ field: String) -> [UInt8]?
    mutating func integer(_ field: String) -> Int64
    mutating func raw32(_ field: String, known: [Int32]) -> Int32
    mutating func pick<T>(_ field: String, _ values: [T]) -> T
}

/// A C payload struct at a stable address with the bytes its strings point into: what a payload
/// shape's ``ArgumentShape/Encoded`` is. Freed with this object.
///
/// The struct and its strings share one allocation (``PayloadStorage/room`` bytes for the strings;
/// only a string that does not fit gets its own ``ABIBytes``): an `openURL` payload made an object,
/// the struct, an array and one buffer per string, each allocated and freed per event.
package final class EncodedPayload<Payload>: @unchecked Sendable {
    // @unchecked: immutable after init; the pointer is only read.
    /// The struct, valid as long as this object lives.
    package let pointer: UnsafePointer<Payload>
    /// The strings that did not fit in the struct's block (usually none: no array allocated).
    private let overflow: [ABIBytes]

    /// `make(storage)` builds the struct; every string it stores through `storage` lives as long as this.
    package init(_ make: (inout PayloadStorage) -> Payload) {
        let offset = MemoryLayout<Payload>.stride
        let block = UnsafeMutableRawPointer.allocate(byteCount: offset + PayloadStorage.room,
                                                     alignment: MemoryLayout<Payload>.alignment)
        var storage = PayloadStorage(room: (block + offset).bindMemory(to: UInt8.self, capacity: PayloadStorage.room))
        let payload = make(&storage)
        pointer = UnsafePointer(block.initializeMemory(as: Payload.self, to: payload))
        overflow = storage.bytes
    }

    deinit {
        let block = UnsafeMutablePointer(mutating: pointer).deinitialize(count: 1)
        block.deallocate()
    }
}

/// Collects the bytes a payload's strings point into while it is encoded: in the payload's own
/// block while they fit, else each in an ``ABIBytes`` kept with the payload.
package struct PayloadStorage {
    /// The bytes a payload's block holds for its strings (each followed by a NUL).
    static let room = 480

    fileprivate(set) var bytes: [ABIBytes] = []
    /// The next free byte of the payload's block, and how many are left.
    private var next: UnsafeMutablePointer<UInt8>?
    private var left = 0

    fileprivate init(room: UnsafeMutablePointer<UInt8>) {
        next = room
        left = Self.room
    }

    /// `text` at a stable address; absent for nil.
    package mutating func string(_ text: String?) -> adh_string {
        guard var text else { return .absent }
        if let stored = text.utf8.withContiguousStorageIfAvailable({ store($0) }) { return stored }
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { store($0) } ?? keep(ABIBytes(text)).string
    }

    /// `value` as JSON text; absent for nil.
    package mutating func json(_ value: JSONValue?) -> adh_string {
        guard let value else { return .absent }
        // An empty object (a user activity's usual userInfo) without serializing it into an array first.
        if case .object(let object) = value, object.isEmpty {
            return ("{}" as StaticString).withUTF8Buffer { store($0) }
        }
        return value.serializedBytes().withUnsafeBufferPointer { store($0) }
    }

    /// Raw bytes (the kit's hostile strings) at a stable address; absent for nil. Empty bytes are a
    /// non-NULL empty string, as the contract wants for "".
    package mutating func raw(_ bytes: [UInt8]?) -> adh_string {
        guard let bytes else { return .absent }
        return bytes.withUnsafeBufferPointer { store($0) }
    }

    /// A copy of `source` followed by a NUL: in the block when it fits, else in bytes of its own.
    private mutating func store(_ source: UnsafeBufferPointer<UInt8>) -> adh_string {
        let count = source.count
        guard count < left, let start = next else { return keep(ABIBytes(source)).string }
        if let base = source.baseAddress { start.initialize(from: base, count: count) }
        start[count] = 0
        next = start + count + 1
        left -= count + 1
        return adh_string(data: UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), length: count)
    }

    /// Keeps `bytes` alive with the payload.
    package mutating func keep(_ bytes: ABIBytes) -> ABIBytes {
        self.bytes.append(bytes)
        return bytes
    }
}
