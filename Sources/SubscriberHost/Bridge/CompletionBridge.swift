import SubscriberABI
import SubscriberKit

/// The host side of completions: turns the dispatcher's ``CompletionHandler`` into a C completion
/// whose `context` is a ticket of ``CompletionTickets/shared`` (see CompletionTickets.swift).
/// Values a plugin passes that the header does not allow are reported through the subscriber's
/// context as warnings and read as the most conservative answer.
enum CompletionBridge {
    private static var tickets: CompletionTickets { .shared }

    static func fetch(_ handler: CompletionHandler<BackgroundFetchResult>, event: LifecycleEvent,
                      context: SubscriberContextReference) -> adh_fetch_completion {
        let token = ticket(event: event, context: context) { answer in
            if case .forged = answer { return handler.reportForged() }
            guard case .fetch(let raw) = answer else { return mismatch(answer, event, context) }
            guard let result = BackgroundFetchResult(rawValue: raw) else {
                context.log("\(event): completion called with \(raw), expected 0 (newData), 1 (noData) or 2 (failed); "
                            + "read as failed", level: .warning)
                return handler(.failed)
            }
            handler(result)
        }
        return adh_fetch_completion(call: { CompletionTickets.shared.deliver($0, .fetch($1)) }, context: token)
    }

    static func void(_ handler: CompletionHandler<Void>, event: LifecycleEvent,
                     context: SubscriberContextReference) -> adh_void_completion {
        let token = ticket(event: event, context: context) { answer in
            if case .forged = answer { return handler.reportForged() }
            guard case .done = answer else { return mismatch(answer, event, context) }
            handler()
        }
        return adh_void_completion(call: { CompletionTickets.shared.deliver($0, .done) }, context: token)
    }

    static func bool(_ handler: CompletionHandler<Bool>, event: LifecycleEvent,
                     context: SubscriberContextReference) -> adh_bool_completion {
        let token = ticket(event: event, context: context) { answer in
            if case .forged = answer { return handler.reportForged() }
            guard case .bool(let raw) = answer else { return mismatch(answer, event, context) }
            guard let succeeded = ABI.bool(fromTristate: raw) else {
                context.log("\(event): completion called with \(raw), expected 0 (false) or 1 (true); read as false",
                            level: .warning)
                return handler(false)
            }
            handler(succeeded)
        }
        return adh_bool_completion(call: { CompletionTickets.shared.deliver($0, .bool($1)) }, context: token)
    }

    /// The restoration handler of continueUserActivity: a JSON array of strings.
    static func restoration(_ handler: CompletionHandler<[String]>, event: LifecycleEvent,
                            context: SubscriberContextReference) -> adh_json_completion {
        let token = ticket(event: event, context: context) { answer in
            if case .forged = answer { return handler.reportForged() }
            if case .unreadable(let problem) = answer {
                context.log("\(event): restoration handler: \(problem); read as []",
                            level: .error)
                return handler([])
            }
            guard case .json(let bytes) = answer else { return mismatch(answer, event, context) }
            let value = try? JSONValue(parsing: bytes)
            let strings = value?.arrayValue?.compactMap(\.stringValue)
            guard let strings, strings.count == value?.arrayValue?.count else {
                context.log("\(event): restoration handler called with \(describe(bytes)), expected a JSON array of "
                            + "strings; read as []", level: .warning)
                return handler([])
            }
            handler(strings)
        }
        return json(token)
    }

    /// The WatchKit reply: a JSON object.
    static func reply(_ handler: CompletionHandler<JSONObject>, event: LifecycleEvent,
                      context: SubscriberContextReference) -> adh_json_completion {
        let token = ticket(event: event, context: context) { answer in
            if case .forged = answer { return handler.reportForged() }
            if case .unreadable(let problem) = answer {
                context.log("\(event): reply: \(problem); read as {}", level: .error)
                return handler([:])
            }
            guard case .json(let bytes) = answer else { return mismatch(answer, event, context) }
            guard case .object(let object)? = try? JSONValue(parsing: bytes) else {
                context.log("\(event): reply called with \(describe(bytes)), expected a JSON object; read as {}",
                            level: .warning)
                return handler([:])
            }
            handler(object)
        }
        return json(token)
    }

    /// Retires `token` without a call: its subscriber declined, or will never call it.
    static func retire(_ token: UnsafeMutableRawPointer?) {
        if let token { tickets.retire(token) }
    }

    /// Once the entry given `token` returned without declining: a ticket still live (not called
    /// yet) is retired when the dispatcher stops waiting for `handler`
    /// (``CompletionHandler/onAbandon(_:)``), so a plugin that never calls does not hold it forever.
    /// Registered only now, not at issue: most plugins have called by now, and the registration
    /// costs an allocation and a lock.
    static func retireWhenAbandoned<Value>(_ token: UnsafeMutableRawPointer?, _ handler: CompletionHandler<Value>) {
        guard let token, tickets.isLive(token) else { return }
        let bits = UInt(bitPattern: token)
        handler.onAbandon { CompletionTickets.shared.retire(token: bits) }
    }

    /// A ticket forwarding to `forward`; when the table is full, an unusable token (its calls are
    /// ignored, so the deadline reports the subscriber as late), reported as an error.
    private static func ticket(event: LifecycleEvent, context: SubscriberContextReference,
                               _ forward: @escaping CompletionTickets.Forward) -> UnsafeMutableRawPointer {
        guard let token = tickets.issue(forward) else {
            context.log("\(event): the host's completion table is full; this completion's calls will be ignored",
                        level: .error)
            CompletionTickets.setCallSite(0)
            return CompletionTickets.unusableToken
        }
        // The entry this ticket is for runs next, on this thread: a forged call made inside it is
        // reported against this ticket's subscriber. ``endCallSite()`` ends it.
        CompletionTickets.setCallSite(UInt(bitPattern: token))
        return token
    }

    /// The entry call that issued the last ticket has returned.
    static func endCallSite() {
        CompletionTickets.setCallSite(0)
    }

    private static func json(_ token: UnsafeMutableRawPointer) -> adh_json_completion {
        adh_json_completion(call: { context, json in
            let answer: CompletionTickets.Answer
            do throws(ABIStringProblem) {
                answer = .json(Array(try json.checkedBytes() ?? UnsafeBufferPointer(start: nil, count: 0)))
            } catch {
                answer = .unreadable(error)
            }
            CompletionTickets.shared.deliver(context, answer)
        }, context: token)
    }

    /// A token used with another completion type's `call`: the plugin mixed up its contexts.
    private static func mismatch(_ answer: CompletionTickets.Answer, _ event: LifecycleEvent,
                                 _ context: SubscriberContextReference) {
        context.log("\(event): a completion of another type was called with this event's context (\(answer)); ignored",
                    level: .warning)
    }

    /// Up to 60 characters of what a plugin sent, for a warning.
    private static func describe(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(60), as: UTF8.self)
        return bytes.count > 60 ? "\"\(text)…\"" : "\"\(text)\""
    }
}

/// A subscriber's context behind one reference, for completion forwarders to capture: capturing
/// the context itself (its strings, application, options and sink) cost a dozen retains and
/// releases per completion.
final class SubscriberContextReference: Sendable {
    let context: SubscriberContext

    init(_ context: SubscriberContext) { self.context = context }

    /// Logs through the context. [any-thread]
    func log(_ message: String, level: LogLevel) { context.log(message, level: level) }
}
