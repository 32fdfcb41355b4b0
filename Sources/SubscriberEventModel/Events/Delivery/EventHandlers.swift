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
