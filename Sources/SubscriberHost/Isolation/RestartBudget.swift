/// How many restarts a child still has: at most `max` in any `withinSeconds`, measured on the
/// dispatcher's clock (VS Code's rule: 3 crashes in 5 minutes and the extension host stays down).
struct RestartBudget {
    let policy: PluginIsolation.RestartPolicy
    /// When each restart in the window happened, in nanoseconds on the host clock, oldest first.
    private var times: [UInt64] = []

    init(_ policy: PluginIsolation.RestartPolicy) { self.policy = policy }

    /// Takes one restart at `now` if the window has room; false when it has not (disable the plugin).
    mutating func take(at now: UInt64) -> Bool {
        let window = UInt64(max(0, policy.withinSeconds)) &* 1_000_000_000
        times.removeAll { now &- $0 >= window }
        guard times.count < policy.max else { return false }
        times.append(now)
        return true
    }

    /// Restarts taken in the window so far.
    var used: Int { times.count }
}
