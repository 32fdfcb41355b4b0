// SessionAnalytics — the session-analytics example of Q2's ApplicationLifecycleModule guide:
// `session_started` when the app becomes active, `session_ended` with its duration when it resigns,
// `memory_warning_received` on memory warnings, all through the host's `logEvent`.
import Foundation
import SubscriberKit

/// One finished session, as the analytics backend would receive it. Codable on purpose: the plugin
/// carries its own copy of the Swift runtime's generic and Codable machinery, next to the host's.
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

    /// The record's fields as event attributes, through JSONEncoder so the round trip is exercised.
    private func attributes(of record: SessionRecord) -> JSONObject {
        guard let data = try? JSONEncoder().encode(record),
              case .object(let object)? = try? JSONValue(parsing: data) else {
            return ["duration": .number(record.duration)]
        }
        return object
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.session-analytics", name: "Session Analytics", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [SessionAnalytics.self])
}
