import Foundation
import TPNSTestSupport
import Testing

/// libplist 2.2 reads a NUL inside a binary property list's string, then
/// aborts the process (an assertion, exit 134) when tpns asks the length of a
/// UTF-16 one, and silently cuts an ASCII one short. Every string and key of a
/// binary file is looked at first: one holding a NUL is refused, naming the
/// key, before libplist sees the file.
@Suite struct NulInPropertyListTests {
  typealias Binary = BinaryPropertyList

  /// A UTF-16 string object (`0x6n`) of `units`, big-endian.
  static func utf16(_ units: [UInt16]) -> [UInt8] {
    [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  /// The files, and what the error says of each.
  static let files: [(name: String, data: Data, reason: String)] = [
    (
      "a UTF-16 value",
      Binary.assemble([
        Binary.dictionary(keys: [1, 2], values: [3, 4]), Binary.string("UIDs"),
        Binary.string("Note"), Binary.array([]), utf16([0xE9, 0]),
      ]),
      "a string under the key 'Note' holds a NUL character"
    ),
    (
      "a UTF-16 key",
      Binary.assemble([
        Binary.dictionary(keys: [1, 2], values: [3, 4]), Binary.string("UIDs"),
        utf16([0xE9, 0, 0x78]), Binary.array([]), Binary.integer(1),
      ]),
      "the key 'é\\0x' holds a NUL character"
    ),
    (
      "an ASCII UID",
      Binary.assemble([
        Binary.dictionary(keys: [1], values: [2]), Binary.string("UIDs"), Binary.array([3]),
        Binary.string(bytes: Array("ABCDEFGHJKLMNPRSTUVW".utf8) + [0, 0x41]),
      ]),
      "a string under the key 'UIDs' holds a NUL character"
    ),
  ]

  @Test(
    "a binary store or import file with a NUL in a string or key is refused (65, naming the key); tpns does not abort",
    .timeLimit(.minutes(1)), arguments: [["list"], ["status"], ["watch"], ["import"]], 0..<3)
  func refused(command: [String], file: Int) throws {
    let (name, data, reason) = Self.files[file]
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let path = command == ["import"] ? directory.file("prefs.plist") : tpns.store
    try data.write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o600) == 0)
    let arguments = command == ["import"] ? ["import", path, "--no-sync"] : command
    let result = try tpns.run(arguments, timeout: .seconds(20))
    #expect(result.status == 65, "\(name): \(result.stderr)")
    #expect(result.stderr.hasPrefix("Error: "), "\(name)")
    #expect(result.stderr.contains(reason), "\(name): \(result.stderr)")
    if command == ["import"] { #expect(contents(of: tpns.store) == nil) }
  }
}
