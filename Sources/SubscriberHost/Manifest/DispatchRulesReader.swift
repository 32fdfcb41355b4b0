import SubscriberDelivery
import SubscriberKit

/// Reads the manifest's keys of the dispatcher's rules (``DispatchRules``), each over the value its
/// profile gave: a key the manifest leaves out keeps the profile's.
enum DispatchRulesReader {
    static func read(_ root: inout JSONObjectReader, over profile: DispatchRules) throws(JSONShapeError) -> DispatchRules {
        var rules = profile
        if let order = try name("transitionOrder", of: DispatchRules.TransitionOrder.self, in: &root) { rules.transitionOrder = order }
        if let duplicate = try name("duplicateRegistration", of: DispatchRules.DuplicateRegistration.self, in: &root) {
            rules.duplicateRegistration = duplicate
        }
        if let once = try name("launchOnce", of: DispatchRules.LaunchOnce.self, in: &root) { rules.launchOnce = once }
        if let replays = try root.bool("replayLaunch") { rules.replaysLaunch = replays }
        if let pending = try name("pendingResponses", of: DispatchRules.PendingResponses.self, in: &root) {
            rules.pendingResponses = pending
        }
        if let forwards = try name("sceneBridgeForwards", of: DispatchRules.SceneBridgeForwards.self, in: &root) {
            rules.sceneBridgeForwards = forwards
        }
        if let asLaunch = try root.bool("sceneConnectAsLaunch") { rules.connectAsLaunch = asLaunch }
        if let skips = try name("sceneBridgeSkips", of: DispatchRules.SceneBridgeSkips.self, in: &root) { rules.sceneBridgeSkips = skips }
        if let fanOut = try name("sceneFanOut", of: DispatchRules.SceneFanOut.self, in: &root) { rules.sceneFanOut = fanOut }
        if let options = try name("sceneConnectionOptions", of: DispatchRules.SceneConnectionOptions.self, in: &root) {
            rules.sceneConnectionOptions = options
        }
        if let answer = try name("willPresentAnswer", of: DispatchRules.WillPresentAnswer.self, in: &root) {
            rules.willPresentAnswer = answer
        }
        if let value = root.value("pendingResponseLimit") {
            let range = DispatchRules.pendingResponseLimitRange
            guard let limit = value.intValue, range.contains(limit) else {
                throw JSONShapeError(path: "pendingResponseLimit",
                                     expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                                     found: value.shapeDescription)
            }
            rules.pendingResponseLimit = limit
        }
        return rules
    }

    /// Member `key` as one of `Choice`'s names; nil when absent.
    private static func name<Choice: RawRepresentable & CaseIterable>(_ key: String, of _: Choice.Type,
                                                                      in root: inout JSONObjectReader)
        throws(JSONShapeError) -> Choice? where Choice.RawValue == String
    {
        guard let value = root.value(key) else { return nil }
        guard case .string(let text) = value, let choice = Choice(rawValue: text) else {
            throw JSONShapeError(path: key, expected: "one of " + Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
                                 found: value.shapeDescription)
        }
        return choice
    }
}
