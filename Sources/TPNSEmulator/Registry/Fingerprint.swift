/// 128 bits standing for a few strings, as a key that holds none of their memory.
///
/// Two SipHash values (the standard library's `Hasher`, seeded at random per
/// process) of the strings, each with its length: two different keys share a
/// fingerprint with a chance of about n² / 2¹²⁹ among n keys. Where sharing one
/// would matter, the user compares the strings themselves.
struct Fingerprint: Hashable {
  private let low: Int
  private let high: Int

  /// The fingerprint of `parts`, in order.
  init(_ parts: String...) {
    var first = Hasher()
    var second = Hasher()
    first.combine(0 as UInt8)
    second.combine(1 as UInt8)
    for part in parts {
      first.combine(part)
      second.combine(part)
    }
    low = first.finalize()
    high = second.finalize()
  }
}
