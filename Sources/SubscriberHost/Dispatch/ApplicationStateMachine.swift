import SubscriberKit

/// The application's state as UIKit moves it (UIApplication.State), kept by the dispatcher from the
/// events it delivers, each row saying when its event may come and how it moves the state
/// (``StateRule``). An event that would break it — `didBecomeActive` before launch, a second
/// launch, anything after `willTerminate` — is refused: not delivered, and reported.
struct ApplicationStateMachine {
    /// The state now.
    private(set) var state: ApplicationState = .notRunning
    /// The launch events delivered so far (at most once each per process).
    private var launches: Set<LifecycleEvent> = []
    /// Whether only launch events were delivered yet (the app is launching).
    private(set) var launching = false
    /// Whether an event that breaks the machine is refused; when not (a host driving one subscriber
    /// through any event, the conformance kit), it is delivered in the state as it is.
    let enforcing: Bool

    init(enforcing: Bool = true) {
        self.enforcing = enforcing
    }

    /// Whether `event` may be delivered now.
    enum Admission: Equatable {
        /// Deliver it in state `during`; the state is `after` once its subscribers were called.
        case deliver(during: ApplicationState, after: ApplicationState)
        /// Refuse it: `expected` says when it may come.
        case refuse(expected: String)
    }

    /// Decides about `event`, and moves the state when it is delivered. Call ``delivered(_:)`` once
    /// its subscribers were called.
    mutating func admit(_ event: LifecycleEvent) -> Admission {
        let admission = decide(event)
        if case .refuse = admission, !enforcing { return .deliver(during: state, after: state) }
        return admission
    }

    private mutating func decide(_ event: LifecycleEvent) -> Admission {
        switch event.row.state {
        case .running:
            switch state {
            case .inactive, .active, .background:
                launching = false
                return .deliver(during: state, after: state)
            case .notRunning:
                return .refuse(expected: "the app launched first (willFinishLaunching or didFinishLaunching)")
            case .terminated:
                return .refuse(expected: "no event after willTerminate")
            }
        case .launch:
            guard !launches.contains(event) else { return .refuse(expected: "\(event) at most once per process") }
            // A background launch (UIKit launches it in the background) is launching too.
            guard state == .notRunning || launching else {
                return .refuse(expected: "\(event) while the app launches, before any other event")
            }
            if event == .willFinishLaunching, launches.contains(.didFinishLaunching) {
                return .refuse(expected: "willFinishLaunching before didFinishLaunching")
            }
            launches.insert(event)
            launching = true
            state = .inactive
            return .deliver(during: .inactive, after: .inactive)
        case .transition(let from, let to, let deliveredIn):
            guard from.contains(state) else {
                let names = from.map(\.name)
                return .refuse(expected: "the app " + (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ")
                                                        + " or " + names.last!))
            }
            launching = false
            let during = deliveredIn == .leaving ? state : to
            state = during
            return .deliver(during: during, after: to)
        }
    }

    /// The event admitted as ``Admission/deliver(during:after:)`` was delivered: the state is `after`.
    mutating func delivered(after: ApplicationState) {
        state = after
    }
}
