import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Tests that change process-wide limits run one at a time.
@Suite(.serialized) struct AtomicFileTests {
  @Test(
    "a write that fails part-way (file size limit, as on a full disk) leaves the old file and no temp file"
  )
  func failedWriteKeepsOldFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let folder = try #require(try StoreDirectory.open(directory.path, creating: false))
    let old = Data("old contents".utf8)
    try AtomicFile.write(Array(old), named: "state.plist", in: folder)

    // RLIMIT_FSIZE makes write(2) fail with EFBIG past the limit, for root too.
    var saved = rlimit()
    getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
    let previousHandler = signal(SIGXFSZ, SIG_IGN)
    var limited = saved
    limited.rlim_cur = 4096
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
    defer {
      setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
      signal(SIGXFSZ, previousHandler)
    }
    #expect {
      try AtomicFile.write(
        Array(repeating: 0x41, count: 64 * 1024), named: "state.plist", in: folder)
    } throws: { error in
      guard case .io(let operation, _, let code)? = error as? StoreError else { return false }
      return operation == "write" && code == EFBIG
    }
    #expect(contents(of: path) == old)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left == ["state.plist"])
  }

  @Test("the new file replaces the old one with mode 0600, whatever the old mode")
  func replaces() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("file")
    try Data("a".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o666)
    let folder = try #require(try StoreDirectory.open(directory.path, creating: false))
    try AtomicFile.write(Array("b".utf8), named: "file", in: folder)
    #expect(contents(of: path) == Data("b".utf8))
    #expect(permissions(of: path) == 0o600)
  }
}
