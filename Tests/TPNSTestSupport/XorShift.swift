/// A fixed pseudo-random sequence (xorshift64) for tests that draw many
/// inputs: the same seed gives the same inputs on every run. Also a
/// `RandomNumberGenerator`, for `Int.random(in:using:)` and the like.
public struct XorShift: RandomNumberGenerator {
  private var state: UInt64

  /// A sequence starting from `seed` (not zero).
  public init(seed: UInt64) {
    state = seed
  }

  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}
