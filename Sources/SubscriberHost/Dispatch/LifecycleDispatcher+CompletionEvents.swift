import SubscriberKit

// The typed entry points of the six events that answer through completion handlers (docs/events.md). Each
// returns exactly once, on the main actor: when every awaited responder called back, or at the
// event's deadline with what arrived.
extension LifecycleDispatcher {
    /// didReceiveRemoteNotification: failed > newData > noData; a late responder counts as failed;
    /// nobody answers: noData, at once.
    public func didReceiveRemoteNotification(userInfo: JSONObject) async -> EventOutcome<BackgroundFetchResult> {
        let application = application
        return await gather(.didReceiveRemoteNotification, reconciler: fetchReconciler(.didReceiveRemoteNotification),
                            noAnswer: .noData, lateValue: .failed, encode: \.json) {
            $0.application(application, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: $1)
        }
    }

    /// performFetch: failed > newData > noData; a late responder counts as failed; nobody answers:
    /// noData, at once.
    public func performFetch() async -> EventOutcome<BackgroundFetchResult> {
        let application = application
        return await gather(.performFetch, reconciler: fetchReconciler(.performFetch), noAnswer: .noData,
                            lateValue: .failed, encode: \.json) {
            $0.application(application, performFetchWithCompletionHandler: $1)
        }
    }

    /// handleEventsForBackgroundURLSession: done when every responder is done (or the deadline
    /// passed); nobody responds: done at once. A finished responder's answer row reads "done".
    public func handleEventsForBackgroundURLSession(identifier: String) async -> EventOutcome<Void> {
        let application = application
        let (collected, reports) = await collect(.handleEventsForBackgroundURLSession) {
            (subscriber, handler: CompletionHandler<Void>) in
            subscriber.application(application, handleEventsForBackgroundURLSession: identifier, completionHandler: handler)
            return true
        }
        let rows = collected.compactMap { entry -> SubscriberAnswer? in
            switch entry.state {
            case .answered: SubscriberAnswer(subscriber: entry.name, answer: "done", nanoseconds: entry.nanoseconds)
            case .late: SubscriberAnswer(subscriber: entry.name, answer: nil, nanoseconds: entry.nanoseconds)
            case .released, .declined: nil
            }
        }
        return finish(.handleEventsForBackgroundURLSession, result: (), rows: rows, reports: reports)
    }

    /// continueUserActivity: any true on the returned answers; nobody answers: false. The restoration
    /// lists of the responders that returned true are concatenated in subscriber order once all of
    /// them called back (a late one contributes nothing); when the result is false the handler is not
    /// called (``ContinueUserActivityResult/restorableObjects`` is nil).
    public func continueUserActivity(_ activity: UserActivity) async -> EventOutcome<ContinueUserActivityResult> {
        let application = application
        let event = LifecycleEvent.continueUserActivity
        var returned: [Bool?] = []
        let (collected, reports) = await collect(event) { (subscriber, handler: CompletionHandler<[String]>) in
            let answer = subscriber.application(application, continue: activity, restorationHandler: handler)
            returned.append(answer)
            return answer == true
        }
        var rows: [SubscriberAnswer] = []
        var answers: [NamedAnswer<Bool>] = []
        var restorable: [String] = []
        for (entry, answer) in zip(collected, returned) {
            guard let answer else {
                rows.append(SubscriberAnswer(subscriber: entry.name, answer: nil, nanoseconds: entry.callNanoseconds))
                continue
            }
            answers.append(NamedAnswer(subscriber: entry.name, answer: answer))
            var row: JSONObject = ["handled": .bool(answer)]
            if case .answered(let identifiers) = entry.state {
                restorable += identifiers
                row["restorableObjects"] = .array(identifiers.map { .string($0) })
            }
            rows.append(SubscriberAnswer(subscriber: entry.name, answer: .object(row),
                                         nanoseconds: answer ? entry.nanoseconds : entry.callNanoseconds))
        }
        let handled = boolReconciler(event).reconcile(answers, event: event, noAnswer: false)
        let result = ContinueUserActivityResult(handled: handled.result, restorableObjects: handled.result ? restorable : nil)
        return finish(event, result: result, rows: rows, reports: reports + handled.reports)
    }

    /// performActionForShortcutItem: any true; a late responder counts as false; nobody answers:
    /// false, at once.
    public func performActionForShortcutItem(_ item: ShortcutItem) async -> EventOutcome<Bool> {
        let application = application
        return await gather(.performActionForShortcutItem, reconciler: boolReconciler(.performActionForShortcutItem),
                            noAnswer: false, lateValue: false, encode: \.json) {
            $0.application(application, performActionFor: item, completionHandler: $1)
        }
    }

    /// handleWatchKitExtensionRequest: the replies merged in subscriber order (a key replied twice
    /// keeps the first and is reported); a late responder contributes nothing; nobody answers: {}.
    public func handleWatchKitExtensionRequest(userInfo: JSONObject) async -> EventOutcome<JSONObject> {
        let application = application
        let event = LifecycleEvent.handleWatchKitExtensionRequest
        let reconciler = configuration.reconciler(for: event).flatMap { Reconciler<JSONObject>($0) }
        return await gather(event, reconciler: reconciler ?? .merge, noAnswer: [:], lateValue: nil,
                            encode: { .object($0) }) {
            $0.application(application, handleWatchKitExtensionRequest: userInfo, reply: $1)
        }
    }

    /// The fetch reconciler configured for `event` (validated when it was chosen).
    func fetchReconciler(_ event: LifecycleEvent) -> Reconciler<BackgroundFetchResult> {
        configuration.reconciler(for: event).flatMap { Reconciler<BackgroundFetchResult>($0) }
            ?? .precedence(ReconcilerChoice.defaultFetchPrecedence)
    }
}
