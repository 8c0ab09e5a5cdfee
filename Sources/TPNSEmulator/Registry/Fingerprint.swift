/// 128 bits standing for a few strings, as a key that holds none of their memory.
///
/// Two SipHash values (the standard library's `Hasher`, seeded at random per
/// process) of the strings, each with its length: two different keys share a
/// fingerprint with a chance of about n² / 2¹²⁹ among n keys. Where sharing one
/// would matter, the user compares the strings themselves.
struct Fingerprint: Hashable {
  private let low: Int
  private let high: Int

  /// The fingerprint of `first`, then `second` if given. Two fixed parameters, not
  /// variadic: a variadic list is an array allocated at each call (two calls a
  /// registration).
  init(_ first: String, _ second: String? = nil) {
    var low = Hasher()
    var high = Hasher()
    low.combine(0 as UInt8)
    high.combine(1 as UInt8)
    low.combine(first)
    high.combine(first)
    if let second {
      low.combine(second)
      high.combine(second)
    }
    self.low = low.finalize()
    self.high = high.finalize()
  }
}
