/// `load.rtld-now`: the file is a plugin file the host may load, and `dlopen(RTLD_NOW | RTLD_LOCAL)`
/// resolves every symbol at once (loader checks 1–4).
struct RTLDNowCheck: ConformanceCheck {
    let id = "load.rtld-now"
    let summary = "loads with dlopen(RTLD_NOW | RTLD_LOCAL)"
    let expectation = "a regular file, not writable by group or others, that dlopen(RTLD_NOW | RTLD_LOCAL) loads"
    let requires: [String] = []

    func run(in environment: CheckEnvironment) async -> Verdict {
        LoadStage.verdict(environment, covers: 1...4, expected: expectation) {
            "dlopen(RTLD_NOW | RTLD_LOCAL) loaded \(environment.pluginPath), every symbol resolved"
        }
    }
}
