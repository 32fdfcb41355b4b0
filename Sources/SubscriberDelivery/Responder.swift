import SubscriberABI
import SubscriberKit
import SubscriberEventModel

/// One responder of one event as the call path sees it, and the one interface every kind of
/// responder is reached through: ``notify(_:_:_:_:call:)``, ``answer(_:_:_:_:_:into:call:)``,
/// ``complete(_:_:_:_:_:collector:index:token:call:)`` and ``restore(_:_:_:_:into:collector:index:token:call:)``,
/// one per answer timing. Each answer goes into the event's slot for this responder: an answer at
/// once into its slot of the event's typed array, filled before the call returns; an answer by
/// completion into its slot of the event's ``CompletionCollector``, now or later, settled by the
/// deadline on the dispatcher's ``HostClock`` when it never comes. A transport that answers at once
/// fills its slot before it returns, so the call paths have no other way in.
///
/// Two transports are built in, as the call paths' fast paths (docs/architecture.md): a loaded
/// plugin's C entry and subscriber struct, called directly; an in-process subscriber and its
/// handler, borrowed. Every other transport — a subscriber in a child process, a test's — is a
/// ``ResponderTransport``, reached through ``Target/transport(_:)`` with no change to the call paths.
///
/// The dispatcher makes one list of responders per event when its subscribers change, in call
/// order, so a dispatch touches neither the subscribers' objects nor their names. Nothing here is
/// retained: the dispatcher's registrations own the subscribers, their handlers, their C structs
/// and their transports for as long as a list of theirs is in use.
package struct Responder {
    package enum Target {
        /// A C vtable entry (the event's function pointer, as a raw pointer) and the `self` to pass.
        case loaded(entry: UnsafeRawPointer, subscriber: UnsafePointer<adh_subscriber>)
        /// An in-process subscriber object and its handler of the event.
        case inProcess(object: Unmanaged<AnyObject>, handler: Unmanaged<AnyEventHandler>)
        /// Any other transport, boxed: a responder stays a plain value, copied without reference
        /// counting on the fast paths.
        case transport(Unmanaged<TransportBox>)
    }

    package let target: Target
    /// The responder's position among the dispatcher's subscribers: how outcomes name it.
    package let subscriber: Int

    package init(_ target: Target, subscriber: Int) {
        self.target = target
        self.subscriber = subscriber
    }
}

/// A way to reach a responder other than the two built into the call paths (a loaded plugin's C
/// entry, an in-process handler): a subscriber in a child process, or a test's. One method per
/// answer timing, generic over the event's shapes, so that a transport can carry the arguments and
/// answers in their own forms (``ArgumentShape``, ``AnswerShape``). Every method is called on the
/// main actor, in dispatch order, and must return once the responder's synchronous part is over;
/// the rules of each answer are the in-process subscriber's.
@MainActor
package protocol ResponderTransport: AnyObject {
    /// Whether it responds to `event` (asked when the dispatcher's responder lists are made).
    func responds(to event: LifecycleEvent) -> Bool

    /// Delivers a notification.
    func notify<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, _: A.Type)

    /// Delivers an event answered at once: its answer (nil: no opinion) goes into `slot` before this returns.
    func answer<A: ArgumentShape, R: ImmediateAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                           into slot: inout R.Answer?, _: A.Type, _: R.Type)

    /// Delivers an event answered through a completion: the answer goes to `completion` (before this
    /// returns or later, from any thread), or it declines through it before returning.
    func complete<A: ArgumentShape, R: CompletionAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                              completion: CompletionHandler<R.Answer>, _: A.Type, _: R.Type)

    /// Delivers `continueUserActivity`: whether it handled it goes into `slot` before this returns
    /// (nil: no opinion), its restoration lists to `restoration`, optionally, later.
    func restore<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, into slot: inout Bool?,
                                   restoration: CompletionHandler<[String]>, _: A.Type)
}

/// A ``ResponderTransport`` held by its registration, for ``Responder/Target/transport(_:)`` to
/// borrow.
@MainActor
package final class TransportBox {
    package let transport: any ResponderTransport

    package init(_ transport: any ResponderTransport) { self.transport = transport }
}

extension Responder {
    package typealias Me = UnsafePointer<adh_subscriber>

    /// Delivers a notification; returns once the responder returned. `cArguments` are the event's
    /// arguments encoded for C (present when some responder is loaded); `call` calls a C entry.
    @MainActor @inline(__always)
    func notify<A: ArgumentShape>(_ value: A.Value, _ cArguments: A.CArguments?, _ context: DeliveryContext, _: A.Type,
                                  call: (UnsafeRawPointer, Me, A.CArguments) -> Void) {
        switch target {
        case .loaded(let entry, let me):
            call(entry, me, cArguments.unsafelyUnwrapped)
        case .inProcess(let object, let handler):
            borrowing(handler) { handler in
                borrowing(object) { object in
                    unsafeDowncast(handler, to: NotificationHandler<A>.self).call(object, context.application, value)
                }
            }
        case .transport(let box):
            borrowing(box) { $0.transport.notify(value, subscriber: subscriber, context, A.self) }
        }
    }

    /// Delivers an event answered at once: its answer goes into `slot` before this returns.
    @MainActor @inline(__always)
    func answer<A: ArgumentShape, R: ImmediateAnswerShape>(
        _ value: A.Value, _ cArguments: A.CArguments?, _ context: DeliveryContext, _: A.Type, _: R.Type,
        into slot: inout R.Answer?, call: (UnsafeRawPointer, Me, A.CArguments) -> R.CReturn
    ) {
        switch target {
        case .loaded(let entry, let me):
            var problem: String?
            slot = R.decode(call(entry, me, cArguments.unsafelyUnwrapped), problem: &problem)
            if let problem { context.problem(subscriber, context.event, problem) }
        case .inProcess(let object, let handler):
            slot = borrowing(handler) { handler in
                borrowing(object) { object in
                    unsafeDowncast(handler, to: ImmediateHandler<A, R>.self).call(object, context.application, value)
                }
            }
        case .transport(let box):
            borrowing(box) { $0.transport.answer(value, subscriber: subscriber, context, into: &slot, A.self, R.self) }
        }
    }

    /// Delivers an event answered through a completion: the answer goes into `collector`'s slot
    /// `index` (a loaded responder's through its token of `tokens`, issued by `table` on this thread,
    /// `thread`), now or later; a decline settles it now.
    @MainActor @inline(__always)
    func complete<A: ArgumentShape, R: CompletionAnswerShape>(
        _ value: A.Value, _ cArguments: A.CArguments?, _ context: DeliveryContext, _: A.Type, _: R.Type,
        collector: CompletionCollector<R.Answer>, index: Int, tokens: CompletionTokens.Run, table: CompletionTokens,
        thread: UInt, call: (UnsafeRawPointer, Me, (A.CArguments, R.CCompletion)) -> adh_response
    ) {
        switch target {
        case .loaded(let entry, let me):
            let token = table.enter(tokens, index, thread: thread)
            let response = call(entry, me, (cArguments.unsafelyUnwrapped, R.completion(token: token)))
            table.leave(tokens, index)
            if declined(response, context) { collector.decline(index) }
        case .inProcess(let object, let handler):
            borrowing(handler) { handler in
                borrowing(object) { object in
                    unsafeDowncast(handler, to: CompletionEventHandler<A, R>.self)
                        .call(object, context.application, value, collector.handler(index))
                }
            }
        case .transport(let box):
            borrowing(box) {
                $0.transport.complete(value, subscriber: subscriber, context, completion: collector.handler(index), A.self, R.self)
            }
        }
    }

    /// Delivers `continueUserActivity`: whether it handled it goes into `slot` before this returns,
    /// its restoration lists into `collector`'s slot `index` (a loaded responder's through its token of
    /// `tokens`, issued by `table` on this thread, `thread`).
    @MainActor @inline(__always)
    func restore<A: ArgumentShape>(
        _ value: A.Value, _ cArguments: A.CArguments?, _ context: DeliveryContext, _: A.Type, into slot: inout Bool?,
        collector: CompletionCollector<[String]>, index: Int, tokens: CompletionTokens.Run, table: CompletionTokens,
        thread: UInt, call: (UnsafeRawPointer, Me, A.CArguments, adh_json_completion) -> adh_tristate
    ) {
        switch target {
        case .loaded(let entry, let me):
            let token = table.enter(tokens, index, thread: thread)
            let raw = call(entry, me, cArguments.unsafelyUnwrapped, RestorationAnswer.completion(token: token))
            table.leave(tokens, index)
            var problem: String?
            slot = OptionalBoolAnswer.decode(raw, problem: &problem)
            if let problem { context.problem(subscriber, context.event, problem) }
        case .inProcess(let object, let handler):
            slot = borrowing(handler) { handler in
                borrowing(object) { object in
                    unsafeDowncast(handler, to: RestorationHandler<A>.self)
                        .call(object, context.application, value, collector.handler(index))
                }
            }
        case .transport(let box):
            borrowing(box) {
                $0.transport.restore(value, subscriber: subscriber, context, into: &slot, restoration: collector.handler(index), A.self)
            }
        }
    }

    /// Whether a C entry's `adh_response` declines; a value other than the header's two is reported
    /// and read as "responds", so that the deadline, not a guess, settles it.
    private func declined(_ response: adh_response, _ context: DeliveryContext) -> Bool {
        // The header's constants, not `ABI`'s lazy statics (a `swift_once` each, every call).
        if response != adh_response(ADH_DECLINES) && response != adh_response(ADH_RESPONDS) {
            context.problem(subscriber, context.event, "returned \(response), expected 0 (declines) or 1 (responds); read as responds")
        }
        return response == adh_response(ADH_DECLINES)
    }
}

/// The responders of one event, in call order.
package struct ResponderList {
    package let responders: [Responder]
    /// Each responder's position among the dispatcher's subscribers, in call order (what outcomes
    /// name them by): made once here, not per event.
    package let subscribers: [Int]
    /// Whether any responder is loaded: then the event's arguments are encoded for C, once.
    package let hasLoaded: Bool

    package init(_ responders: [Responder]) {
        self.responders = responders
        subscribers = responders.map(\.subscriber)
        hasLoaded = responders.contains { if case .loaded = $0.target { true } else { false } }
    }

    package static var empty: ResponderList { ResponderList([]) }
}
