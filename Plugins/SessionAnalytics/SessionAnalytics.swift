// SessionAnalytics — the session-analytics example of Q2's ApplicationLifecycleModule guide:
// `session_started` when the app becomes active, `session_ended` with its duration when it resigns,
// `memory_warning_received` on memory warnings, all through the host's `logEvent`.
import Foundation
import SubscriberKit

/// One finished session, as the analytics backend would receive it (Codable, for a backend that
/// wants it encoded; the event's attributes are made from its fields directly).
struct SessionRecord: Codable, Equatable {
    var startedAt: Double
    var duration: Double
    var sessionNumber: Int
}

/// Measures sessions between becoming active and resigning active.
final class SessionAnalytics: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber,
                              WillResignActiveSubscriber, DidReceiveMemoryWarningSubscriber {
    private var sessionStart: Date?
    private var sessions: [SessionRecord] = []

    func applicationDidBecomeActive(_ application: Application) {
        let now = Date()
        sessionStart = now
        logEvent("session_started", attributes: ["timestamp": .number(now.timeIntervalSince1970)])
    }

    func applicationWillResignActive(_ application: Application) {
        guard let start = sessionStart else { return }
        sessionStart = nil
        let record = SessionRecord(startedAt: start.timeIntervalSince1970,
                                   duration: Date().timeIntervalSince(start),
                                   sessionNumber: sessions.count + 1)
        sessions.append(record)
        logEvent("session_ended", attributes: attributes(of: record))
    }

    func applicationDidReceiveMemoryWarning(_ application: Application) {
        logEvent("memory_warning_received", attributes: ["timestamp": .number(Date().timeIntervalSince1970)])
    }

    /// The record's fields as event attributes, in the record's order. Made directly: a
    /// `JSONEncoder` round trip (encode, then parse the text back) made the same object for about
    /// 40,000 instructions a session, most of `apphost --json`'s cost for this plugin.
    private func attributes(of record: SessionRecord) -> JSONObject {
        ["startedAt": .number(record.startedAt), "duration": .number(record.duration),
         "sessionNumber": .number(Double(record.sessionNumber))]
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.session-analytics", name: "Session Analytics", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [SessionAnalytics.self])
}
