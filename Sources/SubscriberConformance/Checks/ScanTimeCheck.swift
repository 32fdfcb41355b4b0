/// `load.scan-time`: how long a fresh process takes to scan the plugin (loader checks 1–8, `dlopen`
/// and the entry call included): what every host start pays for it.
struct ScanTimeCheck: ConformanceCheck {
    let id = "load.scan-time"
    let summary = "scan time: dlopen, entry symbol and descriptor within the budget"
    let expectation = "the scan (loader checks 1–8, dlopen included) within the budget"
    let requires = ["load.descriptor"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        let budget = environment.request.scanBudget
        let warning = environment.request.scanWarning
        let expected = "a scan (loader checks 1–8, dlopen included) under \(budget.readable) (warning above \(warning.readable))"
        return await environment.withImage(expected: expected) { image in
            let took = image.loadDuration
            let found = "scanned in \(took.readable) in a fresh process"
            if took > budget { return .fail(expected: expected, found: found) }
            if took > warning { return .warn(expected: expected, found: found) }
            return .pass(expected: expected, found: found)
        }
    }
}
