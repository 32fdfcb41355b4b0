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
