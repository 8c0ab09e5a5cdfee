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
    #expect(
      PipelineFailure.invalidUID(
        "short",
        try #require(throws: IdentifierError.self) {
          try DeviceUID("short")
        }
      ).description.hasPrefix("invalid UID 'short': "))
  }
}
