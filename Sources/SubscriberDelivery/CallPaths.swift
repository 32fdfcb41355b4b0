import SubscriberABI
import SubscriberKit
import SubscriberEventModel

// Each event row's call path, compiled for its shapes, here in the engine that runs it: a plugin
// image carries the event table but none of this.
//
// The rows live in SubscriberKit, which cannot see the engine, so the engine compiles one call path
// per timing and pair of shapes it knows (``CallPaths/shapes``) and finds a row's by the row's shape
// types. A row of a pair not listed is a bug of this list, caught the first time the engine reads
// the table (every test run: `CallPathTests`), with a line that says which pair to add. An event of
// existing shapes needs nothing here; a new shape, or a new pairing, one line.

extension EventRow {
    /// Calls every responder of `list` with `call`'s arguments, in order, and returns what the event
    /// produced at once and (now or once its completions arrived) its result.
    @MainActor
    package func deliver(_ call: AnyEventCall, to list: ResponderList, _ context: DeliveryContext) -> InFlight {
        // The call's event's index, which is this row's: read from this module, the row's own
        // `index` (a class's variable) paid a run-time exclusivity check (about 75 instructions an event).
        assert(call.event.row === self, "\(call.event) delivered through the row of \(name)")
        return CallPaths.all[call.event.index](list, call.arguments, context)
    }
}

/// The call path of every row, by event index.
package enum CallPaths {
    package typealias Path = @MainActor (ResponderList, ArgumentBox, DeliveryContext) -> InFlight

    /// Builds the call path of a row of one timing and pair of shapes (nil for a row of others).
    struct Finder: Sendable {
        let build: @Sendable (EventRow) -> Built?
    }

    /// By event index: each row's call path.
    static let all: [Path] = EventTable.rows.map { row in
        guard let built = built(row) else { fatalError(missing(row)) }
        return built.path
    }

    /// `row`'s call path as its finder builds it; nil when no finder takes the row.
    static func built(_ row: EventRow) -> Built? { shapes.lazy.compactMap { $0.build(row) }.first }

    /// The name of the C entry type (``DirectEntry``) the call path built for `row` calls directly;
    /// nil when it goes through the row's C call, or the row has no call path.
    package static func directEntry(_ row: EventRow) -> String? { built(row)?.direct }

    /// Why `row` has no call path; nil when it has one.
    package static func problem(_ row: EventRow) -> String? {
        built(row) != nil ? nil : missing(row)
    }

    private static func missing(_ row: EventRow) -> String {
        "event table: no call path for \(row.name) (\(row.timing.rawValue), \(row.argumentShape) → \(row.answerShape)); "
            + "add its shapes to CallPaths.shapes (Sources/SubscriberDelivery/CallPaths.swift)"
    }

    private typealias Scene<Inner: ArgumentShape> = SceneScoped<Inner>

    /// `shapes`' finder, made where `S` is a concrete type: the path it finds is code compiled for
    /// its shapes (called through `any CallPathShapes`, `build(for:)` and every path it made would
    /// run as generic code, looking up the shapes' generic metadata on every event: callgrind, about
    /// 8,500 instructions an event of `apphost --json`, 21 lookups).
    private static func finder<S: CallPathShapes>(_ shapes: S) -> Finder {
        Finder(build: { shapes.build(for: $0) })
    }

    /// Every timing and pair of shapes some row has.
    static let shapes: [Finder] = [
        // Notifications.
        finder(Notifying<NoArguments>()), finder(Notifying<CountArgument>()), finder(Notifying<DeviceTokenArgument>()),
        finder(Notifying<ErrorArgument>()),
        finder(Notifying<OptionalNotificationArgument>()), finder(Notifying<UserActivityArguments>()),
        finder(Notifying<ActivityFailureArguments>()),
        finder(Notifying<SceneConnectionArguments>()), finder(Notifying<Scene<NoArguments>>()),
        finder(Notifying<Scene<UserActivityArguments>>()),
        finder(Notifying<Scene<ActivityFailureArguments>>()), finder(Notifying<Scene<GeometryArgument>>()),
        // Answers at once.
        finder(Answering<NoArguments, OptionalBoolAnswer>()), finder(Answering<LaunchArguments, OptionalBoolAnswer>()),
        finder(Answering<OpenURLArguments, OptionalBoolAnswer>()), finder(Answering<TextArgument, OptionalBoolAnswer>()),
        finder(Answering<IdiomArgument, OrientationMaskAnswer>()),
        finder(Answering<TextArgument, ConfigurationNameAnswer>()),
        finder(Answering<Scene<UserActivityArguments>, OptionalBoolAnswer>()),
        finder(Answering<Scene<TextArgument>, OptionalBoolAnswer>()),
        finder(Answering<Scene<URLContextsArgument>, OptionalBoolAnswer>()),
        finder(Answering<Scene<NoArguments>, UserActivityAnswer>()),
        // Answers through completions.
        finder(Completing<NoArguments, FetchResultAnswer>()), finder(Completing<UserInfoArgument, FetchResultAnswer>()),
        finder(Completing<UserInfoArgument, DictionaryAnswer>()), finder(Completing<TextArgument, DoneAnswer>()),
        finder(Completing<ShortcutItemArguments, BoolCompletionAnswer>()),
        finder(Completing<Scene<ShortcutItemArguments>, BoolCompletionAnswer>()),
        finder(Completing<NotificationArguments, PresentationOptionsAnswer>()),
        finder(Completing<NotificationResponseArguments, DoneAnswer>()),
        // An answer at once, then a handler.
        finder(Restoring<UserActivityArguments>()),
    ]
}

/// A row's call path, and the name of the C entry type it calls directly (nil: through the row's C call).
struct Built {
    let path: CallPaths.Path
    let direct: String?
}

/// One timing and pair of shapes: the call path of a row of them.
protocol CallPathShapes: Sendable {
    /// `row`'s call path when the row is of these shapes; nil otherwise.
    func build(for row: EventRow) -> Built?
}

extension CallPaths {
    /// Whether `row`'s argument shape gives its entry no C arguments besides `self` (and the completion).
    package static func takesNoCArguments(_ row: EventRow) -> Bool { noCArguments(row.argumentType) }

    private static func noCArguments<A: ArgumentShape>(_: A.Type) -> Bool { A.CArguments.self == Void.self }
}

/// The typed arguments of `box`, of shape `A` (a call's arguments are always its event's shape).
@inline(__always)
private func value<A: ArgumentShape>(_ box: ArgumentBox, _: A.Type) -> A.Value {
    unsafeDowncast(box, to: TypedArgumentBox<A.Value>.self).value
}

/// Whether `row` has these timing and shapes.
private func fits(_ row: EventRow, _ timing: AnswerTiming, _ arguments: Any.Type, _ answer: Any.Type) -> Bool {
    row.timing == timing && ObjectIdentifier(row.argumentType) == ObjectIdentifier(arguments)
        && ObjectIdentifier(row.answerType) == ObjectIdentifier(answer)
}

struct Notifying<A: ArgumentShape>: CallPathShapes {
    func build(for row: EventRow) -> Built? {
        guard fits(row, .notification, A.self, NoAnswer.self) else { return nil }
        if A.CArguments.self == Void.self, DirectEntry.takesSelfOnly(row) {
            // An entry that takes `self` alone (`void (*)(const adh_subscriber *)`, every void event):
            // called here, inlined into the loop, not through the row's C call (two closure calls
            // and a reabstraction thunk a subscriber: callgrind, 21 of a loaded void call's 158).
            // Only when the row's entry is of that C type (``DirectEntry``); CallPathTests checks
            // that every row without C arguments has it.
            return Built(path: { list, box, context in
                Deliver.notification(list, value(box, A.self), context, A.self) { entry, me, _ in
                    unsafeBitCast(entry, to: SelfOnlyEntry.self)(me)
                }
            }, direct: "SelfOnlyEntry")
        }
        let call = unsafeDowncast(row.entryCall, to: EntryCall<A.CArguments, Void>.self).call
        return Built(path: { list, box, context in Deliver.notification(list, value(box, A.self), context, A.self, call: call) },
                     direct: nil)
    }
}

/// The C type of an entry whose event has no C arguments.
typealias SelfOnlyEntry = @convention(c) (UnsafePointer<adh_subscriber>?) -> Void
/// `perform_fetch`'s C type: `self` and the completion.
typealias FetchEntry = @convention(c) (UnsafePointer<adh_subscriber>?, adh_fetch_completion) -> adh_response
/// `will_present`'s C type: `self`, the notification and the completion.
typealias PresentationEntry = @convention(c) (UnsafePointer<adh_subscriber>?, UnsafePointer<adh_notification>?,
                                              adh_presentation_completion) -> adh_response

/// The C entry types the call paths call directly, inlined into their loops, instead of through the
/// row's C call (``EntryCall/call``: two closure calls and a reabstraction thunk a subscriber,
/// callgrind: 48 instructions of a loaded `willPresent` subscriber's). A row's entry is called so
/// only when the row's builder recorded exactly that C type (``EntryCall/entryType``), so a row whose
/// vtable slot has another type takes the row's C call, never a cast to a wrong function type.
package enum DirectEntry {
    /// Whether `row`'s entry takes `self` alone (``SelfOnlyEntry``).
    package static func takesSelfOnly(_ row: EventRow) -> Bool { `is`(row, SelfOnlyEntry.self) }

    /// Whether `row`'s entry is of C type `entry`.
    static func `is`(_ row: EventRow, _ entry: Any.Type) -> Bool {
        ObjectIdentifier(unsafeDowncast(row.entryCall, to: AnyEntryCall.self).entryType) == ObjectIdentifier(entry)
    }

    /// The name of the C type `row`'s entry is called as directly; nil when it goes through the row's C call.
    package static func name(_ row: EventRow) -> String? {
        switch row.timing {
        case .notification: takesSelfOnly(row) ? "SelfOnlyEntry" : nil
        case .completion: `is`(row, FetchEntry.self) ? "FetchEntry" : `is`(row, PresentationEntry.self) ? "PresentationEntry" : nil
        case .immediate, .restoration: nil
        }
    }
}

struct Answering<A: ArgumentShape, R: ImmediateAnswerShape>: CallPathShapes {
    func build(for row: EventRow) -> Built? {
        guard fits(row, .immediate, A.self, R.self) else { return nil }
        let call = unsafeDowncast(row.entryCall, to: EntryCall<A.CArguments, R.CReturn>.self).call
        return Built(path: { list, box, context in Deliver.immediate(list, value(box, A.self), context, A.self, R.self, call: call) },
                     direct: nil)
    }
}

struct Completing<A: ArgumentShape, R: CompletionAnswerShape>: CallPathShapes {
    func build(for row: EventRow) -> Built? {
        guard fits(row, .completion, A.self, R.self) else { return nil }
        // The entries of C types the engine knows, called directly (``DirectEntry``): the casts of
        // the arguments are to their own types (the row's entry type says so).
        if A.CArguments.self == Void.self, R.CCompletion.self == adh_fetch_completion.self, DirectEntry.is(row, FetchEntry.self) {
            return Built(path: { list, box, context in
                Deliver.completion(list, value(box, A.self), context, A.self, R.self) { entry, me, arguments in
                    unsafeBitCast(entry, to: FetchEntry.self)(me, unsafeBitCast(arguments.1, to: adh_fetch_completion.self))
                }
            }, direct: "FetchEntry")
        }
        if A.CArguments.self == UnsafePointer<adh_notification>?.self, R.CCompletion.self == adh_presentation_completion.self,
           DirectEntry.is(row, PresentationEntry.self) {
            return Built(path: { list, box, context in
                Deliver.completion(list, value(box, A.self), context, A.self, R.self) { entry, me, arguments in
                    unsafeBitCast(entry, to: PresentationEntry.self)(
                        me, unsafeBitCast(arguments.0, to: UnsafePointer<adh_notification>?.self),
                        unsafeBitCast(arguments.1, to: adh_presentation_completion.self))
                }
            }, direct: "PresentationEntry")
        }
        let call = unsafeDowncast(row.entryCall, to: EntryCall<(A.CArguments, R.CCompletion), adh_response>.self).call
        // `call` as it is: wrapped in a closure that takes the arguments apart, each call went
        // through a reabstraction thunk more.
        return Built(path: { list, box, context in
            Deliver.completion(list, value(box, A.self), context, A.self, R.self, call: call)
        }, direct: nil)
    }
}

struct Restoring<A: ArgumentShape>: CallPathShapes {
    func build(for row: EventRow) -> Built? {
        guard fits(row, .restoration, A.self, RestorationAnswer.self) else { return nil }
        let call = unsafeDowncast(row.entryCall, to: EntryCall<(A.CArguments, adh_json_completion), adh_tristate>.self).call
        return Built(path: { list, box, context in
            Deliver.restoration(list, value(box, A.self), context, A.self) { call($0, $1, ($2, $3)) }
        }, direct: nil)
    }
}
