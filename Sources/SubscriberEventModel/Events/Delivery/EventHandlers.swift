import SubscriberValues
/// How one subscriber type handles one event: the method its event protocol requires, as a closure
/// over the subscriber object, typed by the event's shapes. The event protocols' witnesses make
/// them (Subscriber/EventProtocols.swift); the dispatcher calls them for in-process subscribers, the
/// SDK's C entries for loaded ones. One class per answer timing.
///
/// The closures take the subscriber as a parameter instead of capturing it: a handler is made once
/// per subscriber type's conformance and holds no object, so calling it costs no reference counting.
package class AnyEventHandler: @unchecked Sendable {
    // @unchecked: immutable, and only called on the main actor.
    package init() {}
}

/// A notification's handler.
package final class NotificationHandler<Arguments: ArgumentShape>: AnyEventHandler, @unchecked Sendable {
    package let call: @MainActor (AnyObject, Application, Arguments.Value) -> Void

    package init(_ call: @escaping @MainActor (AnyObject, Application, Arguments.Value) -> Void) {
        self.call = call
    }
}

/// The handler of an event answered at once; nil is no opinion.
package final class ImmediateHandler<Arguments: ArgumentShape, Answer: ImmediateAnswerShape>: AnyEventHandler, @unchecked Sendable {
    package let call: @MainActor (AnyObject, Application, Arguments.Value) -> Answer.Answer?

    package init(_ call: @escaping @MainActor (AnyObject, Application, Arguments.Value) -> Answer.Answer?) {
        self.call = call
    }
}

/// The handler of an event answered through a completion handler.
package final class CompletionEventHandler<Arguments: ArgumentShape, Answer: CompletionAnswerShape>: AnyEventHandler, @unchecked Sendable {
    package let call: @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<Answer.Answer>) -> Void

    package init(_ call: @escaping @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<Answer.Answer>) -> Void) {
        self.call = call
    }
}

/// `continueUserActivity`'s handler: handled at once, the restoration handler later (optional).
package final class RestorationHandler<Arguments: ArgumentShape>: AnyEventHandler, @unchecked Sendable {
    package let call: @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<[String]>) -> Bool?

    package init(_ call: @escaping @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<[String]>) -> Bool?) {
        self.call = call
    }
}

/// A subscriber type's handler of one event. Made by the SDK; a subscriber never makes one.
public struct _EventWitness: Sendable {
    /// The event's row: the SDK installs the row's C entry. Each row is a static constant made on
    /// first use, so a plugin image makes only the rows of the events its types adopt.
    package let row: EventRow
    package let handler: AnyEventHandler

    package init(_ row: EventRow, _ handler: AnyEventHandler) {
        self.row = row
        self.handler = handler
    }
}

// The event protocols' witnesses make their handlers through these functions, never by naming a
// handler class with concrete shapes (`NotificationHandler<NoArguments>`). Code that names such a
// type looks its metadata up by mangled name, and the runtime then checks the class's requirement
// (`NoArguments: ArgumentShape`) by searching the conformance records of every loaded image: each
// plugin has its own copy of the shapes, so every plugin's first `create` missed the runtime's cache
// and scanned all images loaded so far (about 1.2 million instructions per `create` with 200 plugins
// loaded, quadratic in the number of plugins). Here the caller passes the shapes' witness tables,
// which it references directly, and the class's metadata is built from them: no search. Never
// inlined or compiled for concrete shapes, which would bring the by-name lookup back.

/// A notification's handler, made from `Arguments`' witness table.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
package func notificationHandler<Arguments: ArgumentShape>(
    _: Arguments.Type, _ call: @escaping @MainActor (AnyObject, Application, Arguments.Value) -> Void
) -> AnyEventHandler {
    NotificationHandler<Arguments>(call)
}

/// The handler of an event answered at once, made from the shapes' witness tables.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
package func immediateHandler<Arguments: ArgumentShape, Answer: ImmediateAnswerShape>(
    _: Arguments.Type, _: Answer.Type,
    _ call: @escaping @MainActor (AnyObject, Application, Arguments.Value) -> Answer.Answer?
) -> AnyEventHandler {
    ImmediateHandler<Arguments, Answer>(call)
}

/// The handler of an event answered through a completion handler, made from the shapes' witness tables.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
package func completionEventHandler<Arguments: ArgumentShape, Answer: CompletionAnswerShape>(
    _: Arguments.Type, _: Answer.Type,
    _ call: @escaping @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<Answer.Answer>) -> Void
) -> AnyEventHandler {
    CompletionEventHandler<Arguments, Answer>(call)
}

/// `continueUserActivity`'s handler, made from `Arguments`' witness table.
@inline(never) @_semantics("optimize.sil.specialize.generic.never")
package func restorationHandler<Arguments: ArgumentShape>(
    _: Arguments.Type, _ call: @escaping @MainActor (AnyObject, Application, Arguments.Value, CompletionHandler<[String]>) -> Bool?
) -> AnyEventHandler {
    RestorationHandler<Arguments>(call)
}
