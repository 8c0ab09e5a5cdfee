import TPNSKit
import TPNSProtocol
import Testing

@Suite struct PipelineFailureTests {
  @Test("an invalid UID is shown by its first 40 characters, a line of a file being anything")
  func longInvalidUID() throws {
    let line = String(repeating: "\u{0}", count: 1_000_000)
    let error = try #require(throws: IdentifierError.self) { try DeviceUID(line) }
    let message = PipelineFailure.invalidUID(line, error, location: "f:1").description
    #expect(
      message.hasPrefix("invalid UID '" + String(repeating: "\u{0}", count: 40) + "…' at f:1: "))
    #expect(message.utf8.count < 300)
    // One character of a million scalars: cut by scalars, not characters.
    let accents = "e" + String(repeating: "\u{301}", count: 1_000_000)
    let accentError = try #require(throws: IdentifierError.self) { try DeviceUID(accents) }
    #expect(PipelineFailure.invalidUID(accents, accentError).description.utf8.count < 300)
    #expect(
      StoreFormatError.invalidUID(key: "UIDs", index: 0, text: line, reason: "x").description
        .utf8.count < 400)
    #expect(
      PipelineFailure.invalidUID(
        "short",
        try #require(throws: IdentifierError.self) {
          try DeviceUID("short")
        }
      ).description.hasPrefix("invalid UID 'short': "))
  }
}
