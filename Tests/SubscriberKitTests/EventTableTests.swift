import Foundation
import SubscriberABI
import Testing
@testable import SubscriberDelivery
@testable import SubscriberKit
@testable import SubscriberEventModel

/// The entries of a family's vtable as its header declares them, in order: the function pointers
/// of `struct <vtable> { … }` in `Sources/SubscriberABI/include/<header>`, read from the header
/// itself, so that the table is checked against the contract and not against a copy of it.
enum HeaderEntries {
    static let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SubscriberABI/include")

    /// The event entries of `family`'s vtable: every `(*name)(` between its struct's braces, but the
    /// core's `destroy` and `get_extension`.
    static func of(_ family: EventFamily) throws -> [String] {
        let text = try String(contentsOf: include.appendingPathComponent(family.header), encoding: .utf8)
        let start = try #require(text.range(of: "struct \(family.vtableName) {"), "\(family.header) declares struct \(family.vtableName)")
        let end = try #require(text.range(of: "\n}", range: start.upperBound..<text.endIndex))
        let body = text[start.upperBound..<end.lowerBound]
        return body.matches(of: /\(\*(\w+)\)\(/).map { String($0.output.1) }.filter { $0 != "destroy" && $0 != "get_extension" }
    }
}

/// Drops everything: for subscribers made outside a host.
struct DiscardingSink: SubscriberLogSink {
    func log(subscriber: String, level: LogLevel, message: String) {}
    func logEvent(subscriber: String, name: String, attributes: JSONObject) {}
    func logError(subscriber: String, message: String, attributes: JSONObject) {}
}

extension SubscriberContext {
    /// A context that discards what the subscriber logs.
    static let forTests = SubscriberContext(
        subscriberName: "test", application: Application(name: "News", bundleIdentifier: "b", version: "1"),
        sink: DiscardingSink())
}

/// Adopts two event protocols: every other witness must stay nil.
private final class TwoEvents: InstantiableSubscriber, PerformFetchSubscriber, SupportedInterfaceOrientationsSubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? { nil }
}

/// Adopts one protocol of each family.
private final class TwoFamilies: InstantiableSubscriber, OpenURLSubscriber, WillPresentNotificationSubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {}
}

/// Adopts its event protocol in an extension, as Swift style often does.
private final class ExtensionAdopter: InstantiableSubscriber {
    init(context: SubscriberContext) {}
}

extension ExtensionAdopter: OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

/// A subscriber class others subclass.
private class ActiveParent: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    func applicationDidBecomeActive(_ application: Application) {}
}

/// Adds an event protocol below the class that declared the subscriber protocol: the limit of the
/// design (the compiler chose the witnesses at `ActiveParent`).
private final class OpenURLChild: ActiveParent, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

@MainActor
@Suite("Event table: rows, families, header order, C glue and the compiler-chosen handlers")
struct EventTableTests {
    @Test func anEventsIndexIsItsPositionAndItsRowsPosition() {
        #expect(EventTable.rows.count == LifecycleEvent.allCases.count)
        for (position, event) in LifecycleEvent.allCases.enumerated() {
            #expect(event.index == position, "\(event)")
            #expect(EventTable.rows[position].event == event, "row \(position)")
            #expect(LifecycleEvent(rawValue: event.name) == event)
        }
    }

    @Test func theRowsComeFamilyByFamilyInTheFamiliesOrder() {
        let families = EventTable.rows.map(\.family.index)
        #expect(families == families.sorted())
        #expect(Set(families) == Set(EventFamily.all.map(\.index)))
        for (index, family) in EventFamily.all.enumerated() {
            #expect(family.index == index)
            #expect((family.extensionID == nil) == (index == 0), "only the core family is not an extension")
            #expect(!family.events.isEmpty, "\(family.name)")
        }
    }

    @Test(arguments: EventFamily.all.map(\.name))
    func eachFamilysRowsAreItsHeadersEntriesInOrder(family name: String) throws {
        let family = try #require(EventFamily.all.first { $0.name == name })
        #expect(family.events.map(\.row.cSlot) == (try HeaderEntries.of(family)))
    }

    @Test(arguments: EventFamily.all.map(\.name))
    func eachRowInstallsTheEntryItReadsAndNoOther(family name: String) throws {
        let family = try #require(EventFamily.all.first { $0.name == name })
        let rows = family.events.map(\.row)
        var offsets: [Int] = []
        for row in rows {
            let vtable = family.makeVTable()
            defer { vtable.deallocate() }
            row.install(into: vtable)
            #expect(rows.filter { $0.entry(in: vtable) != nil }.map(\.name) == [row.name], "\(row.name)")
            // Exactly one pointer was written past the struct's fixed fields, and further down the
            // struct for each row in turn: the header's order.
            let written = Self.filledWords(vtable, size: family.vtableSize).filter { $0 >= Self.firstEntryOffset(family) }
            #expect(written.count == 1, "\(row.name) wrote \(written)")
            offsets += written
        }
        #expect(offsets == offsets.sorted() && Set(offsets).count == offsets.count)
        let empty = family.makeVTable()
        defer { empty.deallocate() }
        #expect(rows.allSatisfy { $0.entry(in: empty) == nil })
    }

    @Test func aTypeAdoptingTwoProtocolsHandlesThoseTwoWithTheirRowsHandlers() {
        let handlers = TwoEvents(context: .forTests).eventHandlers()
        #expect(handlers.count == EventTable.rows.count)
        let handled = LifecycleEvent.allCases.filter { handlers[$0.index] != nil }
        #expect(handled == [.performFetch, .supportedInterfaceOrientations])
        for event in handled {
            #expect(handlers[event.index].map(event.row.fits) == true, "\(event)")
        }
    }

    @Test func aTypeInTwoFamiliesHandlesOneEventOfEach() {
        let handlers = TwoFamilies(context: .forTests).eventHandlers()
        let handled = LifecycleEvent.allCases.filter { handlers[$0.index] != nil }
        #expect(handled == [.openURL, .willPresentNotification])
        #expect(handled.map(\.row.family.name) == ["application", "notifications"])
        for event in handled { #expect(handlers[event.index].map(event.row.fits) == true, "\(event)") }
    }

    @Test func aProtocolAdoptedInAnExtensionCounts() {
        let handlers = ExtensionAdopter(context: .forTests).eventHandlers()
        #expect(LifecycleEvent.allCases.filter { handlers[$0.index] != nil } == [.openURL])
    }

    @Test func aSubclassKeepsItsParentsEventsAndCannotAddOne() {
        // Documents the limit stated on AppDelegateSubscriber: the child's openURL is not a handler.
        let handlers = OpenURLChild(context: .forTests).eventHandlers()
        #expect(LifecycleEvent.allCases.filter { handlers[$0.index] != nil } == [.didBecomeActive])
    }

    @Test func everyRowsDefaultReconcilerFitsItsAnswerAndIsAmongItsFittingOnes() throws {
        for row in EventTable.rows {
            _ = try row.policy(nil, settings: DeliverySettings())
            if let standard = row.defaultReconciler {
                #expect(row.fittingReconcilers.contains(standard), "\(row.name)")
                try row.event.check(standard)
            } else {
                #expect(row.fittingReconcilers.isEmpty, "\(row.name): combines nothing, so nothing can be chosen")
            }
        }
    }


    /// Where a family's event entries start: after `destroy` in the core, after `struct_size` (a
    /// pointer's width) in an extension.
    static func firstEntryOffset(_ family: EventFamily) -> Int {
        family.extensionID == nil ? MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + 8 : 8
    }

    /// The offsets of the non-zero pointer-wide words of `vtable`.
    static func filledWords(_ vtable: UnsafeRawPointer, size: Int) -> [Int] {
        stride(from: 0, to: size, by: 8).filter { vtable.load(fromByteOffset: $0, as: UInt.self) != 0 && $0 > 0 }
    }
}
