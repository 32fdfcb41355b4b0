import SubscriberHost

/// The candidate closest to `word` for a "did you mean" hint, or nil when none is close.
///
/// Close means: at most two edits apart (insert, delete, substitute, or swap two neighbours),
/// ignoring case; failing that, `word` is a prefix of exactly one candidate. Ties go to the
/// earlier candidate.
func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    guard !lowered.isEmpty else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, candidate.lowercased(), atMost: 2)
        if distance <= 2, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    if let best { return best.candidate }
    let extending = candidates.filter { $0.lowercased().hasPrefix(lowered) }
    return extending.count == 1 ? extending[0] : nil
}
