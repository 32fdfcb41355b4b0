/// `load.entry-symbol`: the library exports `adh_plugin_entry`, and it returns a descriptor
/// (loader check 5).
struct EntrySymbolCheck: ConformanceCheck {
    let id = "load.entry-symbol"
    let summary = "exports adh_plugin_entry, which returns a descriptor"
    let expectation = "an exported function adh_plugin_entry that returns a non-NULL descriptor"
    let requires = ["load.rtld-now"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        LoadStage.verdict(environment, covers: 5...5, expected: expectation) {
            "adh_plugin_entry is exported and returned a descriptor"
        }
    }
}
