/// A dependency that a test said must not be used was used: what every
/// closure of ``StoreClient/failing`` and ``ServerClient/failing`` throws.
public struct UnexpectedDependencyCall: Error, Equatable, CustomStringConvertible {
  /// The closure called (`StoreClient.update`).
  public var name: String

  /// The call of `name`.
  public init(_ name: String) {
    self.name = name
  }

  public var description: String { "\(name) was called, and this dependency must not be used" }
}
