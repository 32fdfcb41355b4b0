import Synchronization
import SubscriberABI
@_spi(Engine) import SubscriberValues

/// The Swift halves of a Swift plugin's vtable entries, one function per answer timing, generic over
/// the event's shapes: each C entry (written in the event's table row, which names its event and
/// shapes) calls one of these, which brings the instance's application up to date, decodes the C
/// arguments (once per payload serial for every subscriber of this image: ``DecodeCache``), calls the
/// instance's handler of the event and encodes the answer. Run on the main actor
/// (``MainActorEntry``), with the instance and its application borrowed, not retained.
///
/// An entry is only installed for an event the subscriber's type handles, so a missing handler (a
/// vtable used after `destroy`) answers what a NULL entry means: no opinion, nothing, declined.
@MainActor
enum SDKEntry {
    typealias Me = UnsafePointer<adh_subscriber>?

    nonisolated static func notify<A: ArgumentShape>(_ me: Me, _ arguments: A.CArguments, _ event: EventIndex,
                                                     _: A.Type) {
        onMain((me, arguments, event)) { call in
            ExportedInstance.call(call.0, call.1, call.2, A.self, fallback: ()) { _, handler, subscriber, application, value in
                unsafeDowncast(handler, to: NotificationHandler<A>.self).call(subscriber, application, value)
            }
        }
    }

    nonisolated static func answer<A: ArgumentShape, R: ImmediateAnswerShape>(
        _ me: Me, _ arguments: A.CArguments, _ event: EventIndex, _: A.Type, _: R.Type
    ) -> R.CReturn {
        onMain((me, arguments, event)) { call in
            let answer: (ExportedInstance, R.Answer?)? = ExportedInstance.call(call.0, call.1, call.2, A.self, fallback: nil) {
                instance, handler, subscriber, application, value in
                (instance, unsafeDowncast(handler, to: ImmediateHandler<A, R>.self).call(subscriber, application, value))
            }
            guard let (instance, answer) = answer else { return R.encode(nil, keeping: &unused) }
            return R.encode(answer, keeping: &instance.kept)
        }
    }

    nonisolated static func complete<A: ArgumentShape, R: CompletionAnswerShape>(
        _ me: Me, _ arguments: A.CArguments, _ completion: R.CCompletion, _ event: EventIndex, _: A.Type, _: R.Type
    ) -> adh_response {
        onMain((me, arguments, completion, event)) { call in
            ExportedInstance.call(call.0, call.1, call.3, A.self, fallback: adh_response(ADH_DECLINES)) {
                instance, handler, subscriber, application, value in
                // The receiver and the handler made from it, borrowed: no retain and release for a
                // handler the subscriber does not keep (a kept one is a copy, which retains it).
                instance.withReceiver(call.3, SDKCompletion<R.Answer>.self, make: {
                    SDKCompletion<R.Answer>(completion: CompletionWords(call.2), send: { R.call(unsafeBitCast($0, to: R.CCompletion.self), with: $1) },
                                     link: instance.link, name: instance.name, event: call.3.event)
                }) { receiver in
                    receiver.reuse(CompletionWords(call.2))
                    unsafeDowncast(handler, to: CompletionEventHandler<A, R>.self)
                        .call(subscriber, application, value, CompletionHandler(erased: receiver, slot: 0))
                    return receiver.finish()
                }
            }
        }
    }

    /// continue_user_activity: handled at once; the restoration list later, through `completion`,
    /// as a JSON array of strings.
    nonisolated static func restore<A: ArgumentShape>(
        _ me: Me, _ arguments: A.CArguments, _ completion: adh_json_completion, _ event: EventIndex, _: A.Type
    ) -> adh_tristate {
        onMain((me, arguments, completion, event)) { call in
            ExportedInstance.call(call.0, call.1, call.3, A.self, fallback: RestorationAnswer.encode(nil)) {
                instance, handler, subscriber, application, value in
                instance.withReceiver(call.3, SDKRestoration.self, make: {
                    SDKRestoration(completion: call.2, link: instance.link, name: instance.name, event: call.3.event)
                }) { receiver in
                    receiver.reuse(call.2)
                    let handled = unsafeDowncast(handler, to: RestorationHandler<A>.self)
                        .call(subscriber, application, value, CompletionHandler(erased: receiver, slot: 0))
                    receiver.finish(handled: handled)
                    return RestorationAnswer.encode(handled)
                }
            }
        }
    }
}

/// Where an answer with nothing to keep points (no instance to keep it in).
nonisolated(unsafe) private var unused: AnyObject?

/// Runs `body(arguments)` on the main actor. A file-level function: a closure that called a static
/// method would capture the metatype, and `body` must capture nothing (``MainActorEntry``).
@inline(__always)
private func onMain<Arguments, Result>(_ arguments: Arguments,
                                       _ body: @escaping @MainActor (Arguments) -> Result) -> Result {
    MainActorEntry.run(arguments, body)
}

/// The plugin side of one completion-answering call: hands the subscriber's answer to the host's C
/// completion, and tells the entry, once the subscriber's method returned, whether it declined.
///
/// `decline()` is only meaningful before the method returns and before any call; a later one cannot
/// be honoured (the host was already told "responds", or got the answer), so it is reported to the
/// host as a warning and ignored.
///
/// Reused: an instance keeps the last one of each event (``ExportedInstance/withReceiver(_:_:make:_:)``)
/// and takes it again when nobody else holds it (the subscriber kept no handler), so a completion
/// answered within its call allocates nothing.
///
/// The C completion is kept as its two words and called through `send`, made where the answer shape
/// is a concrete type (``SDKEntry/complete(_:_:_:_:_:_:)``): `complete` is an override of a generic
/// class, reached through its vtable from the subscriber's handler, so it runs unspecialized; reading
/// an `Answer.CCompletion` and calling `Answer.call` there looked up the shape's associated types
/// and copied the completion through its value witnesses on every answer.
///
/// Generic over the answer's value, not its shape: a class generic over a type that must conform to
/// a protocol has its metadata made, the first time a plugin image answers with each shape, by a
/// search of every loaded image's conformances (about 1.6 million instructions over the shipped tour's completion
/// events); `Sendable` is checked at compile time only.
package final class SDKCompletion<Value: Sendable>: CompletionReceiver<Value>, @unchecked Sendable {
    // @unchecked: `completion` is set only while nothing else references this object (a new call),
    // and read by the calls of the handler made for that call; the phase is atomic.
    private var completion: CompletionWords
    private let send: @Sendable (CompletionWords, Value) -> Void
    private let phase = CallPhase()
    private let link: HostLink
    private let name: String
    private let event: LifecycleEvent

    init(completion: CompletionWords, send: @escaping @Sendable (CompletionWords, Value) -> Void, link: HostLink,
         name: String, event: LifecycleEvent) {
        self.completion = completion
        self.send = send
        self.link = link
        self.name = name
        self.event = event
    }

    /// Ready for a new call with `completion`. Only when nothing else references it.
    @inline(__always)
    func reuse(_ completion: CompletionWords) {
        self.completion = completion
        phase.reset()
    }

    package override func complete(_ slot: Int, with value: Value) {
        phase.called()
        send(completion, value)
    }

    package override func decline(_ slot: Int) {
        if let late = phase.decline() { phase.warn(link, name, event, late) }
    }

    /// The method returned: ADH_DECLINES when it declined in time.
    func finish() -> adh_response { phase.returned() ? adh_response(ADH_DECLINES) : adh_response(ADH_RESPONDS) }
}

/// The plugin side of `continueUserActivity`'s restoration handler. Declining it before returning
/// means "nothing to restore": the host's handler is called with [] at once, so it waits for nothing.
/// Reused like ``SDKCompletion``.
package final class SDKRestoration: CompletionReceiver<[String]>, @unchecked Sendable {
    // @unchecked: as SDKCompletion.
    private var completion: adh_json_completion
    private let phase = CallPhase()
    private let link: HostLink
    private let name: String
    private let event: LifecycleEvent

    init(completion: adh_json_completion, link: HostLink, name: String, event: LifecycleEvent) {
        self.completion = completion
        self.link = link
        self.name = name
        self.event = event
    }

    /// Ready for a new call with `completion`. Only when nothing else references it.
    func reuse(_ completion: adh_json_completion) {
        self.completion = completion
        phase.reset()
    }

    package override func complete(_ slot: Int, with value: [String]) {
        phase.called()
        RestorationAnswer.call(completion, with: value)
    }

    package override func decline(_ slot: Int) {
        if let late = phase.decline() { phase.warn(link, name, event, late) }
    }

    /// The method returned `handled`: a decline before it, with true, is an empty list.
    func finish(handled: Bool?) {
        if phase.returned(), handled == true { RestorationAnswer.call(completion, with: []) }
    }
}

/// A C completion struct of adh/completion.h (`{call, context}`, the same two words for every answer),
/// untyped.
struct CompletionWords: @unchecked Sendable {
    // @unchecked: a C function and its context, which the host lets any thread call once.
    let call: UnsafeRawPointer?
    let context: UnsafeRawPointer?

    @inline(__always)
    init<Completion>(_ completion: Completion) {
        self = unsafeBitCast(completion, to: CompletionWords.self)
    }
}

/// Whether a completion was called, declined, and whether the method had returned: decides what a
/// decline means. Stored inline in its receiver (noncopyable: no allocation of its own).
struct CallPhase: ~Copyable, Sendable {
    private static let calledBit: UInt8 = 1, declinedBit: UInt8 = 2, returnedBit: UInt8 = 4
    private let bits = Atomic<UInt8>(0)

    func called() { bits.bitwiseOr(Self.calledBit, ordering: .relaxed) }

    /// A new call.
    func reset() { bits.store(0, ordering: .relaxed) }

    /// Records a decline; when it comes too late, why ("after the method returned").
    func decline() -> String? {
        var current = bits.load(ordering: .relaxed)
        while true {
            if current & Self.returnedBit != 0 { return "after the method returned" }
            if current & Self.calledBit != 0 { return "after calling the completion handler" }
            let (exchanged, original) = bits.compareExchange(expected: current, desired: current | Self.declinedBit,
                                                             ordering: .relaxed)
            if exchanged { return nil }
            current = original
        }
    }

    /// The method returned; whether it had declined in time.
    func returned() -> Bool {
        bits.bitwiseOr(Self.returnedBit, ordering: .relaxed).oldValue & Self.declinedBit != 0
    }

    func warn(_ link: HostLink, _ name: String, _ event: LifecycleEvent, _ late: String) {
        link.log(subscriber: name, level: .warning, message: "\(name): \(event) declined its completion handler \(late); ignored")
    }
}
