import Foundation
import Testing
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

/// Plugins that break the contract where the host can tell: every bad string is read as invalid and
/// reported, tokens cannot be guessed from a neighbour's, repeats are counted, a bad struct_size is
/// named, a call after destroy is dropped.
@MainActor
@Suite("Bridge: hostile plugins", .timeLimit(.minutes(10)))
struct BridgeHostileTests {
    private func hostile(_ name: String, sink: RecordingSink) throws -> CSubscriber {
        try #require(CSubscriber(descriptor: Hostile.descriptor, name: name, context: bridgeContext(name, sink: sink)))
    }

    private static let endlessProblem = "expected a string of at most 64 MiB with data, found length 18446744073709551615"

    @Test func aLengthOfSizeMaxIsReportedInEveryHostCall() throws {
        let sink = RecordingSink()
        let subscriber = try hostile("lengths", sink: sink)
        defer { subscriber.destroy() }
        _ = Solo(subscriber).answer(.didBecomeActive)
        #expect(sink.lines == [
            "[lengths] error: log: \(Self.endlessProblem)",
            "[lengths] error: log: \(Self.endlessProblem.replacingOccurrences(of: "18446744073709551615", with: "5")) and NULL data",
            "[lengths] error: log_event name: \(Self.endlessProblem)",
            "[lengths] error: logEvent(opened) attributes: \(Self.endlessProblem); read as {}",
            "[lengths] event opened {}",
            "[lengths] error: log_error: \(Self.endlessProblem)",
            "[lengths] info: still here",
        ])
    }

    @Test func aLengthOfSizeMaxInAnAnswerOrCompletionIsReadAsNothing() async throws {
        let sink = RecordingSink()
        let subscriber = try hostile("lengths", sink: sink)
        defer { subscriber.destroy() }
        let solo = Solo(subscriber)
        let configured = solo.dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "role"))
        #expect(configured.answers.first?.answer == nil)
        #expect(configured.reports == [.invalidAnswer(subscriber: "lengths", event: .configurationForConnecting,
                                                      problem: "\(Self.endlessProblem); read as no opinion")])

        let activity = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://example.com"))
        let continued = await solo.deliver(.continueUserActivity(activity))
        #expect(continued.result == ContinueUserActivityResult(handled: true, restorableObjects: []))
        #expect(continued.reports == [.invalidAnswer(subscriber: "lengths", event: .continueUserActivity,
                                                     problem: "restoration handler: \(Self.endlessProblem); read as []")])

        let replied = await solo.deliver(.handleWatchKitExtensionRequest(userInfo: ["q": 1]))
        #expect(replied.result == [:])
        #expect(replied.answers.first?.answer(as: JSONObject.self) == [:])
        #expect(replied.reports == [.invalidAnswer(subscriber: "lengths", event: .handleWatchKitExtensionRequest,
                                                   problem: "reply: \(Self.endlessProblem); read as {}")])
        #expect(sink.lines.isEmpty)
    }

    @Test func theOneCheckRefusesOnlyWhatCannotBeRead() {
        #expect(adh_string.absent.problem == nil)
        #expect(ABIBytes("").string.problem == nil)
        #expect(adh_string(data: nil, length: 1).problem?.description == "expected a string of at most 64 MiB with data, found length 1 and NULL data")
        let text = ABIBytes("abc")
        #expect(adh_string(data: text.cString, length: ABI.maximumStringLength).problem == nil)
        #expect(adh_string(data: text.cString, length: ABI.maximumStringLength + 1).problem != nil)
        #expect(adh_string(data: text.cString, length: -1).bytes.isEmpty)
        #expect(adh_string(data: text.cString, length: -1).string == nil)
        #expect(adh_bytes(data: text.bytes.data, length: -1).buffer.isEmpty)
        #expect(throws: ABIStringProblem.self) { try adh_bytes(data: text.bytes.data, length: -1).checkedBuffer() }
    }

    @Test func aNeighboursTokenIsReportedAsForgedAgainstTheCaller() async throws {
        let sink = RecordingSink()
        let honest = try hostile("honest", sink: sink)
        let neighbour = try hostile("neighbour", sink: sink)
        defer {
            honest.destroy()
            neighbour.destroy()
        }
        let dispatcher = LifecycleDispatcher(subscribers: [
            SubscriberRegistration(honest),
            SubscriberRegistration(neighbour),
        ], configuration: DispatchConfiguration(application: bridgeTestApplication), state: ApplicationStateCell(),
           enforcesApplicationState: false)
        let outcome = await dispatcher.dispatch(.performFetch)
        // The forged call completed nothing: honest's noData and neighbour's own newData count.
        #expect(outcome.result == .newData)
        #expect(outcome.reports == [.forgedCompletion(subscriber: "neighbour", event: .performFetch)])
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test func tokensOfConsecutiveSlotsAreNotNeighbours() {
        let table = CompletionTokens()
        let tokens = table.issue(64, to: CompletionTokenSink()).map { UInt(bitPattern: $0) }
        for token in tokens.dropFirst() {
            table.deliver(UnsafeMutableRawPointer(bitPattern: token &- 1), .done)
            table.deliver(UnsafeMutableRawPointer(bitPattern: token &+ 1), .done)
        }
        #expect(table.unknownCount == 126)
        #expect(table.mappedCount == 64)
    }

    @Test func aCompletionCalledInALoopMakesOneCountedReport() async throws {
        let sink = RecordingSink()
        let repeater = try hostile("repeater", sink: sink)
        defer { repeater.destroy() }
        let outcome = await Solo(repeater).deliver(.performFetch)
        #expect(outcome.result == .noData)
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "repeater", event: .performFetch,
                                                         count: Hostile.repeats - 1)])
        #expect(outcome.reports.first?.description
                == "duplicate completion: repeater completed performFetch 20,000 times; the 19,999 extra calls were ignored")
    }

    @Test func aStructSizeOfZeroIsNamed() throws {
        let sink = RecordingSink()
        #expect(throws: CSubscriber.CreateFailure.structTooSmall(found: 0, minimum: CSubscriber.minimumStructSize)) {
            try CSubscriber(creating: "zerosize", from: Hostile.descriptor, context: bridgeContext("zerosize", sink: sink))
        }
        let minimum = CSubscriber.minimumStructSize
        #expect(sink.lines == ["[zerosize] error: expected adh_subscriber.struct_size ≥ \(minimum) (up to destroy), "
                               + "found 0; not used, and it cannot be freed"])
        #expect(CSubscriber.CreateFailure.structTooSmall(found: 0, minimum: minimum).description
                == "the subscriber's struct_size does not reach destroy (expected adh_subscriber.struct_size ≥ \(minimum), "
                    + "found 0)")
    }

    @Test func aLogCallAfterDestroyIsDroppedAndReportedOnce() throws {
        let sink = RecordingSink()
        let subscriber = try hostile("afterlife", sink: sink)
        let host = try #require(UnsafePointer<adh_host>(bitPattern: Hostile.afterlifeHost))
        withABIString("before") { host.pointee.log!(host, adh_log_level(ADH_LOG_INFO), $0) }
        subscriber.destroy()
        withABIString("after") { host.pointee.log!(host, adh_log_level(ADH_LOG_INFO), $0) }
        withABIString("again") { host.pointee.log_error!(host, $0, .absent) }
        #expect(host.pointee.options_json!(host).isAbsent)
        #expect(sink.lines == [
            "[afterlife] info: before",
            "[afterlife] error: log called after destroy returned; dropped (later calls are dropped unreported)",
        ])
    }
}
