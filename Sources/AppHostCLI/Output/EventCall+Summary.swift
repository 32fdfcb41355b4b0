import Foundation
import SubscriberHost
import SubscriberKit

extension EventCall {
    /// The call's arguments in a few words, for an event's heading: `news://article/7`,
    /// `{articles: [101, 102]}`, `pad`; nil for events without arguments. Launch events show none:
    /// their invocation says it better.
    var argumentSummary: String? {
        switch arguments {
        case .none, .launch:
            return nil
        case .deviceToken(let token):
            return token.map { String(format: "%02x", $0) }.joined()
        case .error(let error):
            return error.description
        case .userInfo(let userInfo):
            return DisplayText.value(.object(userInfo))
        case .text(let text):
            return text
        case .openURL(let url, _):
            return url.absoluteString
        case .userActivity(let activity):
            return activity.webpageURL.map { "\(activity.activityType) \($0.absoluteString)" } ?? activity.activityType
        case .activityFailure(let activityType, let error):
            return "\(activityType): \(error)"
        case .shortcutItem(let item):
            return item.type
        case .idiom(let idiom):
            return idiom.name
        case .count(let count):
            return "\(count) session\(count == 1 ? "" : "s")"
        }
    }
}
