import Testing

@testable import SubscriberDelivery
@testable import SubscriberKit
@testable import SubscriberEventModel

import BuiltProducts
import Foundation

/// The split between what a plugin links and what only the host runs: every row's call path is
/// compiled in the delivery engine, and a plugin image carries none of the engine.
@Suite("Call paths: compiled in the engine, absent from plugins")
struct CallPathTests {
    @Test("every row of the event table has its timing and shapes' call path in the engine")
    func everyRowHasACallPath() {
        for row in EventTable.rows {
            #expect(CallPaths.problem(row) == nil, "\(row.name)")
        }
    }

    /// The engine's types, as their names appear in a mangled symbol (length, then name).
    static let engineTypes = ["Deliver", "ResponderList", "CompletionCollector", "CompletionTokens", "InFlight",
                              "DeliveryContext", "AnswerRecord", "LateReports", "ManualHostClock", "CallPaths"]

    @Test("a Swift plugin's image names none of the delivery engine's types", arguments: ["Greeter", "BenchSubscribers"])
    func pluginsCarryNoEngine(plugin: String) throws {
        let image = try Data(contentsOf: URL(fileURLWithPath: BuiltProducts.library(plugin)))
        #expect(image.range(of: Data("13SubscriberKit".utf8)) != nil, "lib\(plugin).so should link SubscriberKit")
        for type in Self.engineTypes {
            // As a type of any module: SubscriberKit or the event model (before the splits) or SubscriberDelivery.
            for module in ["13SubscriberKit", "20SubscriberEventModel", "18SubscriberDelivery"] {
                let mangled = module + String(type.utf8.count) + type
                #expect(image.range(of: Data(mangled.utf8)) == nil, "lib\(plugin).so holds \(mangled)")
            }
        }
    }
}

/// The entries the engine calls as C functions of types it names, not through the row's C call:
/// each only for a row whose vtable slot is of that type.
@Suite("Call paths: entries called directly")
struct DirectEntryTests {
    @Test("a row's entry is called as taking `self` alone exactly when its shapes give it no C arguments and its slot is of that type")
    func selfOnlyEntriesTakeSelfAlone() {
        var selfOnly = 0
        for row in EventTable.rows {
            let noArguments = CallPaths.takesNoCArguments(row)
            if DirectEntry.takesSelfOnly(row) {
                // The cast the loop makes: an entry of this type is passed `self` and nothing else.
                #expect(row.timing == .notification && noArguments, "\(row.name): its entry takes self alone, its shapes disagree")
                selfOnly += 1
            }
            if row.timing == .notification, noArguments {
                #expect(DirectEntry.name(row) == "SelfOnlyEntry", "\(row.name): no C arguments, but its entry is not called as taking self alone")
            }
            if !noArguments {
                #expect(DirectEntry.name(row) != "SelfOnlyEntry" && DirectEntry.name(row) != "FetchEntry",
                        "\(row.name): called with C arguments, but its entry is called without them")
            }
        }
        #expect(selfOnly >= 5, "the void events: \(selfOnly)")
    }

    @Test("the completion entries called directly are those of their C types, and the others go through their rows")
    func completionEntries() {
        #expect(DirectEntry.name(ApplicationEvents.performFetch) == "FetchEntry")
        #expect(DirectEntry.name(NotificationCenterEvents.willPresent) == "PresentationEntry")
        // The branch the call path was built with, not only the recorded C type: the direct call also
        // needs the argument and completion types to match.
        #expect(CallPaths.directEntry(ApplicationEvents.performFetch) == "FetchEntry")
        #expect(CallPaths.directEntry(NotificationCenterEvents.willPresent) == "PresentationEntry")
        for row in EventTable.rows {
            #expect(CallPaths.directEntry(row) == DirectEntry.name(row), "\(row.name): built \(CallPaths.directEntry(row) ?? "through its C call")")
        }
        for row in EventTable.rows where row.timing == .completion
            && row !== ApplicationEvents.performFetch && row !== NotificationCenterEvents.willPresent {
            #expect(DirectEntry.name(row) == nil && CallPaths.directEntry(row) == nil, "\(row.name)")
        }
    }
}
