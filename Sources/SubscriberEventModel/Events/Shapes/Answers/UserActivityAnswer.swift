import Foundation
import SubscriberABI
import SubscriberValues

/// A user activity answered at once, or none (`scene.stateRestorationActivity`): an
/// `adh_user_activity` pointer in C, NULL for no opinion, owned by the plugin until its next call.
///
/// The answer is `UserActivity?` so that the event can deliver "none" when nobody answers: a
/// subscriber's `nil` is no opinion, never an answer of none.
package enum UserActivityAnswer: ImmediateAnswerShape {
    package typealias Answer = UserActivity?
    package typealias Immediate = UserActivity?
    package typealias Final = UserActivity?

    package static var fittingReconcilers: [ReconcilerChoice] { [.firstAnswer] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<UserActivity?> {
        try .pick(choice, among: [(.firstAnswer, .firstAnswer)], fitting: fittingReconcilers)
    }

    /// The activity's JSON ({"activityType", "webpageURL"?, "userInfo"?}), `null` for none.
    package static func json(answer: UserActivity?) -> JSONValue { answer.map { .object($0.json) } ?? .null }
    package static func json(final: UserActivity?) -> JSONValue { json(answer: final) }

    package static func appendJSON(answer: UserActivity?, to bytes: inout [UInt8]) {
        guard let activity = answer else { return JSONText.append("null", to: &bytes) }
        JSONText.append(#"{"activityType":"#, to: &bytes)
        JSONText.appendString(activity.activityType, to: &bytes)
        if let url = activity.webpageURL {
            JSONText.append(#","webpageURL":"#, to: &bytes)
            JSONText.appendString(url.absoluteString, to: &bytes)
        }
        if !activity.userInfo.isEmpty {
            JSONText.append(#","userInfo":"#, to: &bytes)
            JSONValue.object(activity.userInfo).appendSerialized(to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
    package static func appendJSON(final: UserActivity?, to bytes: inout [UInt8]) { appendJSON(answer: final, to: &bytes) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> UserActivity? {
        if case .null = json { return nil }
        return try UserActivity(json: json, path: path)
    }

    package static func encode(_ answer: UserActivity??, keeping kept: inout AnyObject?) -> UnsafePointer<adh_user_activity>? {
        guard let activity = answer ?? nil else {
            kept = nil
            return nil
        }
        let payload = EncodedPayload { $0.userActivity(activity, serial: 0) }
        kept = payload
        return payload.pointer
    }

    package static func decode(_ raw: UnsafePointer<adh_user_activity>?, problem: inout String?) -> UserActivity?? {
        guard let raw else { return nil }
        var problems: [String] = []
        let activity = UserActivity(abi: ABI.readCovered(raw), problems: &problems)
        if !problems.isEmpty { problem = problems.joined(separator: "; ") }
        return .some(activity)
    }
}
