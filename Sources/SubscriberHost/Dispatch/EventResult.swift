import SubscriberKit

/// A typed answer: what an event delivered (``EventOutcome/result``) and what one subscriber
/// answered (``SubscriberAnswer/answer``). Rendering (JSON, text) is the caller's business.
public enum EventResult: Sendable, Hashable {
    /// A notification: nothing to deliver.
    case none
    /// A completion without a value was called (`handleEventsForBackgroundURLSession`).
    case done
    /// A Bool.
    case bool(Bool)
    /// A background fetch result.
    case fetchResult(BackgroundFetchResult)
    /// Supported interface orientations.
    case orientationMask(InterfaceOrientationMask)
    /// A scene configuration name.
    case configurationName(String)
    /// A dictionary (WatchKit replies).
    case dictionary(JSONObject)
    /// Whether a user activity was continued, and what the restoration handler received.
    case continuedActivity(ContinueUserActivityResult)

    /// The Bool, for the events that deliver one (`continueUserActivity`: whether it was handled).
    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .continuedActivity(let result): result.handled
        default: nil
        }
    }

    /// The fetch result, for `performFetch` and `didReceiveRemoteNotification`.
    public var fetchResult: BackgroundFetchResult? {
        if case .fetchResult(let value) = self { return value }
        return nil
    }

    /// The orientations, for `supportedInterfaceOrientations`.
    public var orientationMask: InterfaceOrientationMask? {
        if case .orientationMask(let value) = self { return value }
        return nil
    }

    /// The configuration name, for `configurationForConnecting`.
    public var configurationName: String? {
        if case .configurationName(let value) = self { return value }
        return nil
    }

    /// The dictionary, for `handleWatchKitExtensionRequest`.
    public var dictionary: JSONObject? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The continued activity's result, for `continueUserActivity`.
    public var continuedActivity: ContinueUserActivityResult? {
        if case .continuedActivity(let value) = self { return value }
        return nil
    }
}

/// The result of `continueUserActivity`: whether it was handled, and what the restoration handler
/// received.
public struct ContinueUserActivityResult: Sendable, Hashable {
    /// The reconciled Bool (any true by default; false when nobody answers).
    public var handled: Bool
    /// The identifiers handed to the app's restoration handler: the lists of the subscribers that
    /// returned true, concatenated in subscriber order. `nil` means the handler is not called.
    public var restorableObjects: [String]?

    /// A result.
    public init(handled: Bool, restorableObjects: [String]?) {
        self.handled = handled
        self.restorableObjects = restorableObjects
    }
}
