import Foundation
import TPNSKit
import TPNSTestSupport
import Testing

@Suite struct FileDescriptorTests {
  @Test(
    "readAll reads to the end, or the first limit bytes",
    arguments: [
      (100_000, Int.max, 100_000),
      (100_000, 70_000, 70_000),
      (10, 11, 10),
      (0, Int.max, 0),
    ])
  func readAll(size: Int, limit: Int, expected: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("input")
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(descriptor) }
    #expect(try FileDescriptor.readAll(descriptor, limit: limit) == Array(bytes.prefix(expected)))
  }

  @Test("a descriptor that is not open is thrown as its errno")
  func badDescriptor() {
    #expect(throws: ErrnoError(EBADF)) { try FileDescriptor.readAll(-1) }
  }
}
