import Foundation
import TPNSKit
import TPNSTestSupport
import Testing

@Suite struct FileLockTests {
  /// A descriptor open on `path`, created if missing.
  static func open(_ path: String) -> Int32 {
    Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
  }

  @Test("a second open of a locked file is refused until the lock is released")
  func excludes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist.lock")
    let first = try #require(try FileLock(trying: Self.open(path)))
    let other = Self.open(path)
    defer { close(other) }
    #expect(try FileLock(trying: other) == nil)
    first.release()
    #expect(first.descriptor == -1)
    let second = try #require(try FileLock(trying: other))
    #expect(second.descriptor == other)
  }

  @Test("a descriptor that is not open is an errno, not a lock held by another")
  func badDescriptor() {
    #expect(throws: ErrnoError(EBADF)) { try FileLock(trying: -1) }
  }
}
