import SubscriberKit

// Which reconcilers fit which event: derived from the event table's answer kind and default. A
// manifest may choose, per event, any reconciler of the same answer type.

extension AnswerKind {
    /// The reconcilers that fit this kind of answer.
    var fittingReconcilers: [ReconcilerChoice] {
        switch self {
        case .none, .done: []
        case .bool, .boolCompletion, .restoration: [.anyTrue, .allTrue, .firstAnswer]
        case .fetchResult: [.precedence(ReconcilerChoice.defaultFetchPrecedence), .firstAnswer]
        case .orientationMask: [.intersection, .firstAnswer]
        case .configurationName: [.firstAnswer]
        case .dictionary: [.merge, .firstAnswer]
        }
    }
}

extension ReconcilerChoice {
    /// The choice an event table row names as its default.
    init(_ standard: DefaultReconciler) {
        switch standard {
        case .anyTrue: self = .anyTrue
        case .allTrue: self = .allTrue
        case .firstAnswer: self = .firstAnswer
        case .fetchPrecedence: self = .precedence(ReconcilerChoice.defaultFetchPrecedence)
        case .intersection: self = .intersection
        case .merge: self = .merge
        }
    }

    /// Whether this reconciler combines answers of `kind`.
    func fits(_ kind: AnswerKind) -> Bool {
        switch self {
        case .precedence: kind == .fetchResult
        default: kind.fittingReconcilers.contains(self)
        }
    }
}

extension LifecycleEvent {
    /// The reconciler this event uses unless the manifest chooses another; nil for events without answers.
    public var defaultReconciler: ReconcilerChoice? { row.reconciler.map(ReconcilerChoice.init) }
}
