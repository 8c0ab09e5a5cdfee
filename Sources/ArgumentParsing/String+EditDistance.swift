extension String {
  /// The Levenshtein distance to `other`: the fewest single-character
  /// insertions, deletions and substitutions that turn one into the other.
  /// Costs O(n·m) time and O(m) memory.
  ///
  ///     "lst".editDistance(to: "list")  // 1
  func editDistance(to other: String) -> Int {
    let source = Array(self)
    let target = Array(other)
    guard !source.isEmpty, !target.isEmpty else { return max(source.count, target.count) }
    var previous = Array(0...target.count)
    var current = previous
    for (row, character) in source.enumerated() {
      current[0] = row + 1
      for column in 1...target.count {
        let substitution = previous[column - 1] + (character == target[column - 1] ? 0 : 1)
        current[column] = Swift.min(substitution, previous[column] + 1, current[column - 1] + 1)
      }
      swap(&previous, &current)
    }
    return previous[target.count]
  }

  /// The candidate closest to this text, if one is close enough to be what
  /// was meant: an edit distance under 4 (swift-argument-parser's floor for
  /// its "Did you mean" suggestions) and at most half this text's length (so
  /// that `foo` does not suggest `add`); the first of equally close ones.
  ///
  ///     "regster".nearest(among: ["register", "remove"])  // "register"
  func nearest(among candidates: [String]) -> String? {
    let limit = Swift.min(3, Swift.max(1, count / 2))
    let scored = candidates.map { ($0, editDistance(to: $0)) }.filter { $0.1 <= limit }
    return scored.min { $0.1 < $1.1 }?.0
  }
}
