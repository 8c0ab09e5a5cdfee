import Foundation

/// A fresh directory under the system's temp directory, removed when the test is done.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("\(NSTemporaryDirectory())/tpns-test-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    path = String(cString: created)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ name: String) -> String {
    "\(path)/\(name)"
  }
}

/// The mode bits of a file.
func permissions(of path: String) -> mode_t {
  var status = stat()
  return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
}

/// The bytes of a file, or nil.
func contents(of path: String) -> Data? {
  FileManager.default.contents(atPath: path)
}
