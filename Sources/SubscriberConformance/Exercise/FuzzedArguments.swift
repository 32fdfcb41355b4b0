import SubscriberABI
import SubscriberKit

/// One fuzz case's arguments of an event, drawn by its argument schema as the C payload's raw parts:
/// strings as bytes of any kind (absent where the header lets them be NULL), JSON as text, enums as
/// any 32-bit value. The shape mirrors ``EventArguments``; ``FuzzTargets`` passes it to the entry.
enum FuzzedArguments {
    /// An error's fields.
    struct Failure {
        var domain: [UInt8]
        var message: [UInt8]
        var code: Int64
    }

    /// A user activity's fields.
    struct Activity {
        var type: [UInt8]
        var webpageURL: [UInt8]?
        var userInfo: [UInt8]?
    }

    case none
    case launch(options: [UInt8], invocation: adh_invocation_kind, detail: [UInt8]?)
    case deviceToken([UInt8])
    case error(Failure)
    case userInfo([UInt8])
    case text([UInt8])
    case openURL(url: [UInt8], sourceApplication: [UInt8]?, annotation: [UInt8]?, openInPlace: adh_tristate)
    case userActivity(Activity)
    case activityFailure(type: [UInt8], error: Failure)
    case shortcutItem(type: [UInt8], title: [UInt8], userInfo: [UInt8])
    case idiom(adh_idiom)
    case count(Int64)

    /// Draws the arguments of `schema` from `values`, each field under its script key (so that a
    /// crash's progress line names the input in the words of an event script).
    init(_ schema: ArgumentSchema, drawingFrom values: inout FuzzValues) {
        switch schema {
        case .none:
            self = .none
        case .launchOptions:
            let options = values.jsonObject("launchOptions")
            let kind = values.pick("invocation", Array(adh_invocation_kind(ADH_INVOCATION_UNKNOWN)...adh_invocation_kind(ADH_INVOCATION_BACKGROUND)))
            self = .launch(options: options, invocation: kind, detail: values.optionalText("invocationDetail", url: true))
        case .deviceToken:
            self = .deviceToken(values.text("deviceToken"))
        case .error:
            self = .error(Self.failure(&values))
        case .userInfo:
            self = .userInfo(values.jsonObject("userInfo"))
        case .text(let key, _):
            self = .text(values.text(key))
        case .openURL:
            let url = values.text("url", url: true)
            let source = values.optionalText("sourceApplication")
            let annotation = values.jsonValue("annotation")
            let inPlace = values.pick("openInPlace", [ADH_FALSE, ADH_TRUE, ADH_NO_OPINION].map { adh_tristate($0) })
            self = .openURL(url: url, sourceApplication: source, annotation: annotation, openInPlace: inPlace)
        case .userActivity:
            let type = values.text("activityType"), url = values.optionalText("webpageURL", url: true)
            self = .userActivity(Activity(type: type, webpageURL: url, userInfo: values.optionalJSONObject("userInfo")))
        case .activityFailure:
            let type = values.text("activityType")
            self = .activityFailure(type: type, error: Self.failure(&values))
        case .shortcutItem:
            let type = values.text("type"), title = values.text("title")
            self = .shortcutItem(type: type, title: title, userInfo: values.jsonObject("userInfo"))
        case .idiom:
            self = .idiom(values.raw32("idiom", known: UserInterfaceIdiom.allCases.map(\.rawValue)))
        case .count:
            self = .count(values.integer("count"))
        }
    }

    private static func failure(_ values: inout FuzzValues) -> Failure {
        let domain = values.text("error.domain"), message = values.text("error.message")
        return Failure(domain: domain, message: message, code: values.integer("error.code"))
    }
}
