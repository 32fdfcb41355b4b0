/// The exit statuses of `apphost` (docs/cli.md, "Exit status").
package enum ExitStatus {
    /// Every event played without a report; `list`: every required plugin loads.
    package static let success: Int32 = 0
    /// An event failed: the dispatcher raised a report about it (a subscriber was late, completed
    /// twice, after delivery or after declining, declined too late, or the answers conflicted).
    /// `list`: a required plugin fails a load check.
    package static let failure: Int32 = 1
    /// A usage error, a bad manifest or event script, a plugin that failed to load, or a write to
    /// standard output or the log file that failed (a closed pipe excepted: that ends quietly).
    package static let usage: Int32 = 2
}
