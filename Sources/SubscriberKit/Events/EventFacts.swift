import SubscriberABI

// The vocabulary of the event table (EventTable.swift): the facts that vary per event, as values.

/// The kind of answer subscribers give to an event; it decides how the dispatcher calls them and
/// which reconcilers fit.
package enum AnswerKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A notification: nothing to answer.
    case none
    /// `Bool?`, at once.
    case bool
    /// `InterfaceOrientationMask?`, at once.
    case orientationMask
    /// A scene configuration name, `String?`, at once.
    case configurationName
    /// A `BackgroundFetchResult` through a completion.
    case fetchResult
    /// "Done" through a completion (no value).
    case done
    /// A `Bool` through a completion.
    case boolCompletion
    /// A JSON object through a completion.
    case dictionary
    /// A `Bool?` at once, then restorable-object identifiers through a handler.
    case restoration

    /// Whether subscribers answer through a completion handler (so the event has a deadline).
    package var completes: Bool {
        switch self {
        case .fetchResult, .done, .boolCompletion, .dictionary, .restoration: true
        case .none, .bool, .orientationMask, .configurationName: false
        }
    }

    /// How error messages name it: "a Bool", "a fetch result", …
    package var description: String {
        switch self {
        case .none: "nothing"
        case .bool, .boolCompletion, .restoration: "a Bool"
        case .orientationMask: "an orientation mask"
        case .configurationName: "a configuration name"
        case .fetchResult: "a fetch result"
        case .done: "nothing (done)"
        case .dictionary: "a dictionary"
        }
    }
}

/// An event's default reconciler (docs/events.md); a manifest may choose another that fits.
package enum DefaultReconciler: Sendable, Hashable {
    /// True if any answer is true.
    case anyTrue
    /// One false vetoes.
    case allTrue
    /// The first answer in subscriber order.
    case firstAnswer
    /// failed > newData > noData.
    case fetchPrecedence
    /// The intersection of the masks, starting from all.
    case intersection
    /// The dictionaries merged; a key answered twice keeps the first.
    case merge
}

/// What an event delivers when nobody answers (nobody responds, or every answer is `nil`).
package enum NobodyAnswers: Sendable, Hashable {
    /// Nothing: a notification, or "done" at once.
    case nothing
    /// This Bool.
    case bool(Bool)
    /// This fetch result.
    case fetchResult(BackgroundFetchResult)
    /// The manifest's default orientations for the idiom.
    case defaultOrientations
    /// This scene configuration name.
    case configurationName(String)
    /// An empty dictionary.
    case emptyDictionary
}

/// What a responder that misses a completion event's deadline counts as.
package enum LateCountsAs: Sendable, Hashable {
    /// Not a completion event.
    case notApplicable
    /// It contributes nothing (no answer; reported as late).
    case nothing
    /// This fetch result.
    case fetchResult(BackgroundFetchResult)
    /// This Bool.
    case bool(Bool)
}

/// One argument an event script line may give (docs/cli.md): its key, what it holds, and whether it
/// must be there. An event's arguments are one ``EventArguments`` shape.
package enum ArgumentSchema: Sendable, Hashable {
    /// No arguments.
    case none
    /// `launchOptions` (default: none, a launch from the icon).
    case launchOptions
    /// `deviceToken`, hexadecimal bytes, required.
    case deviceToken
    /// `error` {"domain", "code", "message"}, required.
    case error
    /// `userInfo`, a JSON object, default {}.
    case userInfo
    /// One string under `key`; required when `defaultValue` is nil.
    case text(key: String, defaultValue: String?)
    /// `url` (required, absolute) and `options` {sourceApplication, annotation, openInPlace}.
    case openURL
    /// `activityType`, `webpageURL`, `userInfo`.
    case userActivity
    /// `activityType` and `error`, both required.
    case activityFailure
    /// `type`, `title`, `userInfo`.
    case shortcutItem
    /// `idiom`, default phone.
    case idiom
    /// `count`, 0 or more, default 1.
    case count
}

/// The plugin's C function of one vtable entry, typed by its signature (adh/subscriber.h).
/// Several events share a signature; the host calls each signature one way.
package enum CEntry {
    package typealias Me = UnsafePointer<adh_subscriber>?

    case notify(@convention(c) (Me) -> Void)
    case notifyBytes(@convention(c) (Me, adh_bytes) -> Void)
    case notifyError(@convention(c) (Me, UnsafePointer<adh_error>?) -> Void)
    case notifyActivity(@convention(c) (Me, UnsafePointer<adh_user_activity>?) -> Void)
    case notifyTextError(@convention(c) (Me, adh_string, UnsafePointer<adh_error>?) -> Void)
    case notifyCount(@convention(c) (Me, Int64) -> Void)
    case ask(@convention(c) (Me) -> adh_tristate)
    case askLaunch(@convention(c) (Me, UnsafePointer<adh_launch>?) -> adh_tristate)
    case askText(@convention(c) (Me, adh_string) -> adh_tristate)
    case askOpenURL(@convention(c) (Me, UnsafePointer<adh_open_url>?) -> adh_tristate)
    case askOrientations(@convention(c) (Me, adh_idiom) -> Int64)
    case askConfiguration(@convention(c) (Me, adh_string) -> adh_string)
    case fetch(@convention(c) (Me, adh_fetch_completion) -> adh_response)
    case fetchUserInfo(@convention(c) (Me, adh_string, adh_fetch_completion) -> adh_response)
    case doneText(@convention(c) (Me, adh_string, adh_void_completion) -> adh_response)
    case shortcut(@convention(c) (Me, UnsafePointer<adh_shortcut_item>?, adh_bool_completion) -> adh_response)
    case restoration(@convention(c) (Me, UnsafePointer<adh_user_activity>?, adh_json_completion) -> adh_tristate)
    case replyUserInfo(@convention(c) (Me, adh_string, adh_json_completion) -> adh_response)
}
