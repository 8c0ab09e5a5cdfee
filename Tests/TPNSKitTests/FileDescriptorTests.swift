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
      (10, 10, 10),
      (10, 0, 0),
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

  @Test("a pipe is read to its end, in chunks, as its writer fills it")
  func pipeToItsEnd() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // More than a pipe holds: the writer blocks until the reader takes some.
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let writeEnd = ends[1]
    let writer = Thread {
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes {
          write(writeEnd, $0.baseAddress! + offset, $0.count - offset)
        }
        guard written > 0 else { break }
        offset += written
      }
      close(writeEnd)
    }
    writer.start()
    #expect(try FileDescriptor.readAll(ends[0]) == bytes)
  }

  @Test("a file whose size says 0 (a /proc file) is read to its end")
  func procFile() throws {
    let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    defer { close(descriptor) }
    let text = String(decoding: try FileDescriptor.readAll(descriptor), as: UTF8.self)
    #expect(text.hasPrefix("Name:"))
    #expect(text.contains("\nPid:"))
  }

  @Test("a descriptor that is not open is thrown as its errno")
  func badDescriptor() {
    #expect(throws: ErrnoError(EBADF)) { try FileDescriptor.readAll(-1) }
  }
}
