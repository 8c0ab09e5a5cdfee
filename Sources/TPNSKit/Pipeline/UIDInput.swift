import TPNSProtocol

/// A UID as the user gave it, and where it was read if not typed
/// (`uids.txt:3`): the pipeline decides whether it is valid, and its
/// failure names both.
///
///     try UIDInput("abcdefghjklmnprstuvw").parsed().rawValue  // "ABCDEFGHJKLMNPRSTUVW"
public struct UIDInput: Sendable, Equatable {
  /// The text, as given.
  public var text: String
  /// Where it was read (`file:line`), nil if typed.
  public var location: String?

  /// `text`, read at `location` if given.
  public init(_ text: String, location: String? = nil) {
    self.text = text
    self.location = location
  }

  /// The UID, or ``PipelineFailure/invalidUID(_:_:location:)`` naming the
  /// input and where it was read.
  func parsed() throws(PipelineFailure) -> DeviceUID {
    do {
      return try DeviceUID(text)
    } catch {
      throw .invalidUID(text, error, location: location)
    }
  }

}
