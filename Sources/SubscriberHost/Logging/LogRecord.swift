import Foundation
import SubscriberDelivery
import SubscriberKit

/// One thing a subscriber told its host: a log line, an analytics event or an error (Q2's module
/// delegate calls), stamped with when and by whom.
public struct LogRecord: Sendable, Hashable, CustomStringConvertible {
    /// Which of the three sink calls produced a record.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `log(level, message)`.
        case log
        /// `logEvent(name, attributes)`.
        case event
        /// `logError(message, attributes)`.
        case error
    }

    /// When the host received it (wall clock).
    public var time: Date
    /// The subscriber that sent it.
    public var subscriber: String
    /// Log line, event or error.
    public var kind: Kind
    /// The line's level; `.info` for events and `.error` for errors.
    public var level: LogLevel
    /// The message, or the event's name for `.event`.
    public var message: String
    /// The event's or error's attributes (`{}` for log lines).
    public var attributes: JSONObject {
        get {
            switch stored {
            case .none: JSONObject()
            case .text(let text): text.object
            case .built(let object): object
            }
        }
        set { stored = newValue.isEmpty ? .none : .built(newValue) }
    }

    /// The attributes as a plugin sent them, when that text is in the serializer's form (what the
    /// SDK sends): output writes it as it is, and ``attributes`` builds the object only when asked.
    package var attributesText: JSONObjectText? {
        if case .text(let text) = stored { return text }
        return nil
    }

    /// The attributes as kept: one field, so that a record is copied and destroyed with one
    /// reference counted for them at most (none for a log line), not two.
    private enum Stored: Sendable {
        /// No attributes (`{}`).
        case none
        /// A plugin's text, checked.
        case text(JSONObjectText)
        /// An object with members.
        case built(JSONObject)
    }

    private var stored: Stored

    /// Whether there are no attributes.
    package var hasAttributes: Bool {
        if case .none = stored { return false }
        return true
    }

    /// A record with the given fields.
    public init(time: Date = Date(), subscriber: String, kind: Kind, level: LogLevel, message: String,
                attributes: JSONObject = [:]) {
        self.time = time
        self.subscriber = subscriber
        self.kind = kind
        self.level = level
        self.message = message
        stored = attributes.isEmpty ? .none : .built(attributes)
    }

    /// A record whose attributes are `attributesText` (a plugin's, checked), kept as text.
    package init(time: Date = Date(), subscriber: String, kind: Kind, level: LogLevel, message: String,
                 attributesText: JSONObjectText) {
        // Every field set here (delegating to the other init made a record and copied it).
        self.time = time
        self.subscriber = subscriber
        self.kind = kind
        self.level = level
        self.message = message
        stored = .text(attributesText)
    }

    /// A record without attributes (a log line): no object made, none kept.
    package init(time: Date = Date(), subscriber: String, level: LogLevel, message: String) {
        self.time = time
        self.subscriber = subscriber
        kind = .log
        self.level = level
        self.message = message
        stored = .none
    }

    public static func == (lhs: LogRecord, rhs: LogRecord) -> Bool {
        lhs.time == rhs.time && lhs.subscriber == rhs.subscriber && lhs.kind == rhs.kind && lhs.level == rhs.level
            && lhs.message == rhs.message
            && (lhs.attributesText != nil && lhs.attributesText == rhs.attributesText || lhs.attributes == rhs.attributes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(subscriber)
        hasher.combine(kind)
        hasher.combine(level)
        hasher.combine(message)
        hasher.combine(attributes)
    }

    /// One line for people: `[Analytics] info: started`, `[Analytics] event session_started {…}`.
    public var description: String {
        let attributesText = hasAttributes ? " \(JSONValue.object(attributes))" : ""
        switch kind {
        case .log: return "[\(subscriber)] \(level): \(message)"
        case .event: return "[\(subscriber)] event \(message)\(attributesText)"
        case .error: return "[\(subscriber)] error: \(message)\(attributesText)"
        }
    }
}
