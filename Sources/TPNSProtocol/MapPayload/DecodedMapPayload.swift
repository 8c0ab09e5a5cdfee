/// What ``MapPayload/decode(entries:)`` read from a `map`: its entries in order
/// (duplicates kept, UIDs unchecked), the keys each had besides the protocol's, and
/// what a canonical client would not have sent.
public struct DecodedMapPayload: Sendable, Hashable {
  /// The entries, in order and as sent.
  public var entries: [MapEntry]
  /// For each entry (same index), its keys besides `uid`, `interval` and `format`
  /// with their values; empty for most.
  public var otherKeys: [[String: JSONValue]]
  /// What a canonical client would not have sent; empty for a canonical payload.
  public var irregularities: [MapPayloadIrregularity]

  public init(
    entries: [MapEntry], otherKeys: [[String: JSONValue]],
    irregularities: [MapPayloadIrregularity]
  ) {
    self.entries = entries
    self.otherKeys = otherKeys
    self.irregularities = irregularities
  }
}
