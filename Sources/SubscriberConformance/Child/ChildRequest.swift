import Foundation
import SubscriberHost
import SubscriberKit

/// What the parent asks one child process to do: one check on one plugin, with the run's settings.
/// Travels as the first message on the child's private channel.
struct ChildRequest: Sendable, Hashable {
    var check: String
    var plugin: String
    var seed: UInt64
    var completionDeadline: Duration
    var handlerBudget: Duration
    var handlerWarning: Duration
    var scanBudget: Duration
    var scanWarning: Duration
    var memoryGrowthLimit: Int
    var createDestroyCycles: Int
    var fuzzCases: Int
    var allowWritable: Bool
    /// What the subscribers' contexts get as their options.
    var subscriberOptions: JSONObject

    init(check: String, plugin: String, seed: UInt64, options: ConformanceOptions, subscriberOptions: JSONObject = [:]) {
        self.check = check
        self.plugin = plugin
        self.seed = seed
        completionDeadline = options.completionDeadline
        handlerBudget = options.handlerBudget
        handlerWarning = options.handlerWarning
        scanBudget = options.scanBudget
        scanWarning = options.scanWarning
        memoryGrowthLimit = options.memoryGrowthLimit
        createDestroyCycles = options.createDestroyCycles
        fuzzCases = options.fuzzCases
        allowWritable = options.allowWritable
        self.subscriberOptions = subscriberOptions
    }

    /// As JSON. The seed travels as a string: a JSON number cannot hold every UInt64.
    var json: JSONValue {
        .object([
            "check": .string(check), "plugin": .string(plugin), "seed": .string(String(seed)),
            "completionDeadlineNs": .number(Double(completionDeadline.nanosecondsSaturating)),
            "handlerBudgetNs": .number(Double(handlerBudget.nanosecondsSaturating)),
            "handlerWarningNs": .number(Double(handlerWarning.nanosecondsSaturating)),
            "scanBudgetNs": .number(Double(scanBudget.nanosecondsSaturating)),
            "scanWarningNs": .number(Double(scanWarning.nanosecondsSaturating)),
            "memoryGrowthLimit": .number(Double(memoryGrowthLimit)),
            "createDestroyCycles": .number(Double(createDestroyCycles)),
            "fuzzCases": .number(Double(fuzzCases)),
            "allowWritable": .bool(allowWritable),
            "subscriberOptions": .object(subscriberOptions),
        ])
    }

    /// Reads ``json``; nil when anything is missing or of the wrong type.
    init?(json: JSONValue) {
        func duration(_ key: String) -> Duration? { json[key]?.intValue.map { .nanoseconds($0) } }
        guard let check = json["check"]?.stringValue, let plugin = json["plugin"]?.stringValue,
              let seed = json["seed"]?.stringValue.flatMap({ UInt64($0) }),
              let completionDeadline = duration("completionDeadlineNs"),
              let handlerBudget = duration("handlerBudgetNs"), let handlerWarning = duration("handlerWarningNs"),
              let scanBudget = duration("scanBudgetNs"), let scanWarning = duration("scanWarningNs"),
              let memoryGrowthLimit = json["memoryGrowthLimit"]?.intValue,
              let createDestroyCycles = json["createDestroyCycles"]?.intValue,
              let fuzzCases = json["fuzzCases"]?.intValue, let allowWritable = json["allowWritable"]?.boolValue,
              let subscriberOptions = json["subscriberOptions"]?.objectValue
        else { return nil }
        self.check = check
        self.plugin = plugin
        self.seed = seed
        self.completionDeadline = completionDeadline
        self.handlerBudget = handlerBudget
        self.handlerWarning = handlerWarning
        self.scanBudget = scanBudget
        self.scanWarning = scanWarning
        self.memoryGrowthLimit = memoryGrowthLimit
        self.createDestroyCycles = createDestroyCycles
        self.fuzzCases = fuzzCases
        self.allowWritable = allowWritable
        self.subscriberOptions = subscriberOptions
    }
}

extension Duration {
    /// "12.3 ms", "1.24 s".
    var readable: String {
        let ms = milliseconds
        if ms >= 1_000 { return String(format: "%.2f s", ms / 1_000) }
        if ms >= 100 { return String(format: "%.0f ms", ms) }
        return String(format: "%.1f ms", ms)
    }
}
