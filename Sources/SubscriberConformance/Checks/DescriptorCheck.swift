/// `load.descriptor`: every descriptor field is well-formed (loader check 8): non-empty id and name,
/// valid UTF-8, a `create` function, unique non-empty subscriber names.
struct DescriptorCheck: ConformanceCheck {
    let id = "load.descriptor"
    let summary = "descriptor well-formed: id, name, UTF-8, create, unique subscriber names"
    let expectation = "non-empty id and name, valid UTF-8 everywhere, a create function, unique non-empty subscriber names"
    let requires = ["load.swift-version"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        LoadStage.verdict(environment, covers: 8...8, expected: expectation) {
            guard case .success(let image) = environment.load() else { return "accepted by the loader" }
            let names = image.subscriberNames.isEmpty ? "no subscribers" : image.subscriberNames.joined(separator: ", ")
            return "id \(image.id), name \"\(image.name)\", version \(image.version), "
                + "\(plural(image.subscriberNames.count, "subscriber")): \(names)"
        }
    }
}
