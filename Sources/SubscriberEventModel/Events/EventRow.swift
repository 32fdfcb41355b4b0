import SubscriberABI
import SubscriberValues

/// The facts of one event: everything that varies from one event to another. Script reading,
/// dispatch, reconciler checks, the C glue on both sides, the conformance kit's inputs and the
/// output all read these rows, so an event is added in its family's table (Table/), its header and
/// its protocol — nowhere else.
///
/// What depends on the event's argument and answer *shapes* is typed inside: a row is made by a
/// generic builder (EventRow+Builders.swift) with its shapes, and keeps the operations it needs as
/// closures specialized for them. Outside, rows are uniform: the dispatcher, the CLI and the kit
/// hold `EventRow`s and never switch over shapes.
///
/// A class so that reading a row on the dispatch path shares it instead of copying it.
package final class EventRow: @unchecked Sendable {
    // @unchecked: immutable.
    /// The event's wire name: `openURL`, `notifications.willPresent`.
    package let name: String
    /// The event's position in ``EventTable/rows``: what dispatch arrays are indexed by. Set once,
    /// when the table is assembled.
    // Unchecked: set once, when the table is assembled, before any event is dispatched; checked, every
    // read of an event's index (several per call) would pay for exclusivity bookkeeping.
    @exclusivity(unchecked) package internal(set) var index = -1
    /// Its family: which C vtable its entry is in, which group of Swift protocols its protocol is in.
    package let family: EventFamily
    /// Whether it is a scene event, whose calls name a scene (``scene(of:)``): read on every dispatch,
    /// so a stored flag rather than a comparison of families.
    package let namesScene: Bool
    /// The UIKit method it stands for.
    package let uikit: String
    /// The protocol a Swift subscriber adopts to receive it, and that protocol's one requirement.
    package let swiftProtocol: String
    package let swiftRequirement: String
    /// When the event may be delivered, and how it moves the application's state.
    package let state: StateRule
    /// The vtable entry's name in the family's C struct.
    package let cSlot: String
    /// How subscribers answer.
    package let timing: AnswerTiming
    /// The reconciler used unless the manifest chooses another; nil for events without answers.
    package let defaultReconciler: ReconcilerChoice?
    /// The reconcilers a manifest may choose for it.
    package let fittingReconcilers: [ReconcilerChoice]
    /// What is delivered when nobody answers, in words (docs, the kit): `true`, `"noData"`, …
    package let nobodyAnswers: String
    /// What a responder that misses the deadline counts as, in words; nil when the event has no deadline.
    package let lateCountsAs: String?
    /// The names of its shapes: `OpenURLArguments`, `OptionalBoolAnswer`.
    package let argumentShape: String
    package let answerShape: String

    let operations: Operations

    /// Its shapes as types: the delivery engine compiles one call path per timing and pair of shapes,
    /// and finds a row's by these.
    package let argumentType: any ArgumentShape.Type
    package let answerType: any AnswerShape.Type

    /// For a scene event, what the scene bridge replays to app-level subscribers (docs/events.md);
    /// nil for every other event. Set once, when the table's row is made (``bridging(_:to:followsApplicationState:_:)``).
    package private(set) var bridge: SceneBridgeRule?

    /// What a row does with its shapes, as closures made by its builder.
    struct Operations {
        var read: (inout JSONObjectReader) throws(JSONShapeError) -> ArgumentBox
        var write: (ArgumentBox, inout JSONObject) -> Void
        var summary: (ArgumentBox) -> String?
        var launchInvocation: (ArgumentBox) -> LaunchInvocation?
        var scene: (ArgumentBox) -> SceneReference?
        var naming: (ArgumentBox, SceneReference) -> ArgumentBox
        var canonical: () -> [ArgumentBox]
        var policy: (ReconcilerChoice?, DeliverySettings) throws(ReconcilerMismatch) -> EventPolicy
        var answerJSON: (any Sendable) -> JSONValue
        var finalJSON: (any Sendable) -> JSONValue
        var appendAnswerJSON: (any Sendable, inout [UInt8]) -> Void
        var appendFinalJSON: (any Sendable, inout [UInt8]) -> Void
        var readEntry: (UnsafeRawPointer) -> UnsafeRawPointer?
        var install: (UnsafeMutableRawPointer) -> Void
        var fits: (AnyEventHandler) -> Bool
        var erasedHandler: (LifecycleEvent, @escaping @MainActor (ErasedInvocation) -> (any Sendable)?) -> AnyEventHandler
        /// How to call an entry of the row's C type with the shapes' C forms, typed for its shapes
        /// (``EntryCall``): what the delivery engine's call path calls each loaded responder with.
        var entryCall: AnyObject
        var fuzz: (inout any FuzzDraw, UInt64) -> FuzzedCall
    }

    init(name: String, family: EventFamily, uikit: String, swift: (String, String), state: StateRule, cSlot: String,
         timing: AnswerTiming, defaultReconciler: ReconcilerChoice?, fittingReconcilers: [ReconcilerChoice],
         nobodyAnswers: String, lateCountsAs: String?, argumentType: any ArgumentShape.Type, answerType: any AnswerShape.Type,
         operations: Operations) {
        self.name = name
        self.family = family
        namesScene = family === EventFamily.scene
        self.uikit = uikit
        (swiftProtocol, swiftRequirement) = swift
        self.state = state
        self.cSlot = cSlot
        self.timing = timing
        self.defaultReconciler = defaultReconciler
        self.fittingReconcilers = fittingReconcilers
        self.nobodyAnswers = nobodyAnswers
        self.lateCountsAs = lateCountsAs
        self.argumentType = argumentType
        self.answerType = answerType
        // Names read from metadata, not `String(describing:)`: that casts the metatype to protocols
        // first, and each cast scans every loaded image's conformances.
        argumentShape = _typeName(argumentType, qualified: false)
        answerShape = _typeName(answerType, qualified: false)
        self.operations = operations
    }

    /// The event.
    package var event: LifecycleEvent { LifecycleEvent(row: self) }

    // MARK: Scripts and JSON

    /// Reads a call of this event from an event-script object: every member but `"event"` (docs/cli.md).
    /// Unknown keys and wrong types are errors naming the key path.
    package func call(reading reader: inout JSONObjectReader) throws(JSONShapeError) -> AnyEventCall {
        let arguments = try operations.read(&reader)
        try reader.rejectUnknownKeys()
        return AnyEventCall(event, arguments)
    }

    /// `call`'s arguments as the script keys ``call(reading:)`` reads.
    package func scriptMembers(of call: AnyEventCall) -> JSONObject {
        var object = JSONObject()
        operations.write(call.arguments, &object)
        return object
    }

    /// `call`'s arguments in a few words for an event heading; nil for none.
    package func summary(of call: AnyEventCall) -> String? { operations.summary(call.arguments) }

    /// How the app was launched, as `call`'s arguments say (launch options); nil when they do not.
    package func launchInvocation(of call: AnyEventCall) -> LaunchInvocation? { operations.launchInvocation(call.arguments) }

    /// The scene `call` names; nil for an event that is not a scene event.
    package func scene(of call: AnyEventCall) -> SceneReference? { operations.scene(call.arguments) }

    /// `call` naming `scene` instead (with the role and activation state the host keeps); `call`
    /// itself for an event that is not a scene event.
    package func call(_ call: AnyEventCall, naming scene: SceneReference) -> AnyEventCall {
        AnyEventCall(event, operations.naming(call.arguments, scene))
    }

    /// The app-level calls the scene bridge replays for `call` (``bridge``'s event, one call per
    /// URL for `scene.openURLContexts`); empty for an event without a bridge.
    package func bridgedCalls(of call: AnyEventCall) -> [AnyEventCall] {
        guard let bridge else { return [] }
        return bridge.arguments(call.arguments).map { AnyEventCall(bridge.event, $0) }
    }

    /// Ordinary calls of this event, one per variant a real app sends (the conformance kit's).
    package var canonicalCalls: [AnyEventCall] { operations.canonical().map { AnyEventCall(event, $0) } }

    /// One subscriber's answer as JSON (output rows).
    package func json(answer: any Sendable) -> JSONValue { operations.answerJSON(answer) }
    /// The event's result as JSON; `null` for none.
    package func json(result: any Sendable) -> JSONValue { operations.finalJSON(result) }
    /// Appends the compact text of ``json(answer:)`` to `bytes`, written by the answer shape from the
    /// typed value (no `JSONValue`): output's hot path.
    package func appendJSON(answer: any Sendable, to bytes: inout [UInt8]) { operations.appendAnswerJSON(answer, &bytes) }
    /// Appends the compact text of ``json(result:)`` to `bytes`, as ``appendJSON(answer:to:)`` does.
    package func appendJSON(result: any Sendable, to bytes: inout [UInt8]) { operations.appendFinalJSON(result, &bytes) }

    // MARK: Policy

    /// The event's policy with `choice` (nil: the default reconciler); throws when it does not fit.
    package func policy(_ choice: ReconcilerChoice?, settings: DeliverySettings) throws(ReconcilerMismatch) -> EventPolicy {
        try operations.policy(choice, settings)
    }

    // MARK: C

    /// The plugin's entry for this event in its family's vtable at `vtable` (read as far as its
    /// `struct_size` covers), as a raw function pointer; nil when NULL or not covered.
    package func entry(in vtable: UnsafeRawPointer) -> UnsafeRawPointer? { operations.readEntry(vtable) }

    /// Sets this event's entry of the family vtable at `vtable` to the SDK's function for it.
    package func install(into vtable: UnsafeMutableRawPointer) { operations.install(vtable) }

    /// Whether `handler` is of the kind this row calls (its timing and shapes).
    package func fits(_ handler: AnyEventHandler) -> Bool { operations.fits(handler) }

    /// A handler of this event that hands every call to `body`, erased: the subscriber, the
    /// application, the call, and the completion of an event answered through one. `body` returns the
    /// answer of an event answered at once (of the event's answer type; nil: no opinion), nothing
    /// otherwise. For subscribers that are not Swift types adopting the event protocols: one that
    /// forwards events elsewhere (to another process), or a test's recorder of every event.
    package func erasedHandler(_ body: @escaping @MainActor (ErasedInvocation) -> (any Sendable)?) -> AnyEventHandler {
        operations.erasedHandler(event, body)
    }

    // MARK: Delivery

    /// The row's C call, typed for its shapes: an ``EntryCall`` of its C arguments and what its
    /// entry returns, with the completion's C type for an event answered through one.
    package var entryCall: AnyObject { operations.entryCall }

    /// Hostile C arguments for this event's entry, drawn from `draw`: a call of an entry with them
    /// (completions that ignore their calls).
    package func fuzzedCall(_ draw: inout any FuzzDraw, serial: UInt64) -> FuzzedCall { operations.fuzz(&draw, serial) }
}

/// What the scene bridge replays for a scene event that no scene subscriber handled: an app-level
/// event, with arguments made from the scene event's (docs/events.md).
package struct SceneBridgeRule: Sendable {
    /// The app-level event replayed.
    package let event: LifecycleEvent
    /// Whether it is replayed when the application's state (derived from its scenes) changes — the
    /// transitions — rather than when no scene subscriber handled the scene event.
    package let followsApplicationState: Bool
    /// The arguments of each replayed call, from the scene event's.
    let arguments: @Sendable (ArgumentBox) -> [ArgumentBox]
}

extension EventRow {
    /// This row, bridged to `target`: the scene bridge replays `target` with the arguments `arguments`
    /// makes from this row's (of `target`'s shape), one call each. Used once, where the table makes the row.
    func bridging<A: ArgumentShape, V: Sendable & Hashable>(
        _: A.Type, to target: EventRow, followsApplicationState: Bool = false,
        _ arguments: @escaping @Sendable (A.Value) -> [V]
    ) -> EventRow {
        let event = target.event
        bridge = SceneBridgeRule(event: event, followsApplicationState: followsApplicationState) { box in
            arguments(unsafeDowncast(box, to: TypedArgumentBox<A.Value>.self).value).map { TypedArgumentBox($0) }
        }
        return self
    }
}

/// How subscribers answer an event.
package enum AnswerTiming: String, Sendable, CaseIterable {
    /// Nothing to answer: every responder is called, in order.
    case notification
    /// An answer returned at once.
    case immediate
    /// An answer handed to a completion handler, exactly once, before a deadline.
    case completion
    /// An answer at once, then an optional handler (continueUserActivity's restoration).
    case restoration

    /// Whether the event has a completion, hence a deadline.
    package var completes: Bool { self == .completion || self == .restoration }
}

/// One call of a plugin's entry with hostile arguments (the conformance kit's fuzzing): the
/// arguments live as long as this.
package struct FuzzedCall {
    private let callEntry: (UnsafeRawPointer, UnsafePointer<adh_subscriber>) -> Void

    init(_ call: @escaping (UnsafeRawPointer, UnsafePointer<adh_subscriber>) -> Void) { callEntry = call }

    /// Calls `entry` (this event's, as ``EventRow/entry(in:)`` read it) of `subscriber`.
    package func callAsFunction(_ entry: UnsafeRawPointer, _ subscriber: UnsafePointer<adh_subscriber>) {
        callEntry(entry, subscriber)
    }
}

/// How to call a raw C entry of one row's C type: the entry, the subscriber, the C arguments (and,
/// for an event answered through a completion, the completion), giving what the entry returns.
/// Made by a row's builder, where its C type is known; the delivery engine casts a row's back to
/// the types its shapes say. No requirements on its parameters: its metadata is made without any
/// conformance lookup.
package final class EntryCall<Arguments, Result>: AnyEntryCall, @unchecked Sendable {
    // @unchecked: immutable; the closure captures only the row's immutable C call.
    package let call: (UnsafeRawPointer, UnsafePointer<adh_subscriber>, Arguments) -> Result

    init(_ entryType: Any.Type, _ call: @escaping (UnsafeRawPointer, UnsafePointer<adh_subscriber>, Arguments) -> Result) {
        self.call = call
        super.init(entryType: entryType)
    }
}

/// What every row's ``EntryCall`` says whatever its parameters.
package class AnyEntryCall: @unchecked Sendable {
    // @unchecked: immutable.
    /// The entry's C function type, as the family's vtable declares it: the engine calls an entry of
    /// a type it knows directly, without the row's call (SubscriberDelivery/CallPaths.swift), and only
    /// when this is that type.
    package let entryType: Any.Type

    init(entryType: Any.Type) { self.entryType = entryType }
}

/// The arguments of one call, typed inside by the event's argument shape.
package class ArgumentBox: @unchecked Sendable {
    // @unchecked: immutable.
    init() {}

    /// The arguments of an event without any, shared by every call of one.
    static let none: ArgumentBox = TypedArgumentBox(NoValue())

    func isEqual(_ other: ArgumentBox) -> Bool { false }
    func hash(into hasher: inout Hasher) {}
}

/// Arguments of type `Value`.
///
/// `Value` is hashable (the initializer requires it), but the class does not require it: a type with
/// a protocol requirement is built by name at its first use in code compiled per shape (a script
/// line's reader), and checking the requirement then scans every loaded image's conformances
/// (350,000 instructions at the first event of each argument shape, after the plugins are loaded).
/// Equality and hashing (`EventCall`'s `==`, never on the delivery path) find `Value`'s conformance
/// when they are called instead.
package final class TypedArgumentBox<Value: Sendable>: ArgumentBox, @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) where Value: Hashable { self.value = value }

    override func isEqual(_ other: ArgumentBox) -> Bool {
        guard let other = other as? TypedArgumentBox<Value>, let value = value as? any Hashable else { return false }
        return Self.equal(value, other.value)
    }

    private static func equal<H: Hashable>(_ value: H, _ other: Value) -> Bool { (other as? H) == value }

    override func hash(into hasher: inout Hasher) {
        if let value = value as? any Hashable { hasher.combine(value) }
    }
}

/// When an event may be delivered, and how it moves the application's state (UIApplication.State)
/// and, for scene events, its scene's (UIScene.ActivationState): the state machine the host keeps
/// reads these from the rows.
package enum StateRule: Sendable, Equatable {
    /// Delivered while the app runs: after launch, before it terminates.
    case running
    /// A launch event: at most once per process, while the app is not running or launching; it is
    /// delivered in, and leaves the app, `inactive`.
    case launch
    /// A transition from one of `from` to `to`, delivered in the state it leaves (`will…`) or the
    /// one it enters (`did…`).
    case transition(from: [ApplicationState], to: ApplicationState, deliveredIn: DeliveredIn)
    /// A scene connects (`scene.willConnect`) while the app runs: a scene not connected yet, or
    /// disconnected (a session UIKit connects again). It is unattached during the call and after.
    case sceneConnect
    /// A scene's transition from one of `from` to `to` (nil: it disconnects), delivered in the scene
    /// state it leaves or the one it enters; the application's state follows its scenes.
    case sceneTransition(from: [SceneState], to: SceneState?, deliveredIn: DeliveredIn)
    /// Delivered to a connected scene, in any of its states, while the app runs.
    case scene

    /// Which side of a transition an event is delivered on.
    package enum DeliveredIn: Sendable, Equatable {
        /// The state it leaves (UIKit's `will…` events).
        case leaving
        /// The state it enters (UIKit's `did…` events).
        case entering
    }
}

/// One call as an erased handler (``EventRow/erasedHandler(_:)``) receives it.
package struct ErasedInvocation {
    /// The subscriber object the handler was registered with.
    package let subscriber: AnyObject
    package let application: Application
    package let call: AnyEventCall
    /// The completion of an event answered through one (the restoration handler included); nil otherwise.
    package let completion: ErasedCompletion?
}

/// A completion handler with its value erased: ``complete(_:)`` takes the event's answer type.
package struct ErasedCompletion: Sendable {
    private let completeValue: @Sendable (any Sendable) -> Void
    private let declineCall: @Sendable () -> Void

    init<Value: Sendable>(_ handler: CompletionHandler<Value>) {
        completeValue = { handler($0 as! Value) }
        declineCall = { handler.decline() }
    }

    /// Completes with `value`, of the event's answer type (`()` for one without a value). [any-thread]
    package func complete(_ value: any Sendable) { completeValue(value) }

    /// Declines; only valid before the handler returns.
    package func decline() { declineCall() }
}
