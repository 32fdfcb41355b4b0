/// How one subscriber handles one event, by the kind of answer it gives: what the dispatcher calls,
/// for a subscriber registered in-process and for one loaded through the C ABI alike.
///
/// A subscriber type's handlers come from the event protocols it adopts
/// (``AppDelegateSubscriber/eventHandlers()``); a loaded subscriber's from its non-NULL vtable entries.
/// Each closure holds its subscriber.
package enum EventHandler {
    /// A notification: nothing to answer.
    case notify(@MainActor (Application, EventArguments) -> Void)
    /// A `Bool?` answer.
    case bool(@MainActor (Application, EventArguments) -> Bool?)
    /// An `InterfaceOrientationMask?` answer.
    case orientationMask(@MainActor (Application, EventArguments) -> InterfaceOrientationMask?)
    /// A scene configuration name, `String?`.
    case configurationName(@MainActor (Application, EventArguments) -> String?)
    /// A fetch result through a completion handler.
    case fetch(@MainActor (Application, EventArguments, CompletionHandler<BackgroundFetchResult>) -> Void)
    /// "Done" through a completion handler.
    case done(@MainActor (Application, EventArguments, CompletionHandler<Void>) -> Void)
    /// A `Bool` through a completion handler.
    case boolCompletion(@MainActor (Application, EventArguments, CompletionHandler<Bool>) -> Void)
    /// A dictionary through a completion handler.
    case dictionary(@MainActor (Application, EventArguments, CompletionHandler<JSONObject>) -> Void)
    /// A `Bool?` answer, and when true the identifiers of the objects to restore through a handler.
    case restoration(@MainActor (Application, EventArguments, CompletionHandler<[String]>) -> Bool?)

    /// The kind of answer, to check a handler against its event's row.
    package var answerKind: AnswerKind {
        switch self {
        case .notify: .none
        case .bool: .bool
        case .orientationMask: .orientationMask
        case .configurationName: .configurationName
        case .fetch: .fetchResult
        case .done: .done
        case .boolCompletion: .boolCompletion
        case .dictionary: .dictionary
        case .restoration: .restoration
        }
    }
}
