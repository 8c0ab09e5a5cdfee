import Foundation

/// Binary property lists (`bplist00`) for tests, made without the code under
/// test: by Foundation's writer (the one `plutil -convert binary1` runs), by
/// the `plutil` and `python3` found on `PATH`, or assembled object by object
/// for files no writer makes (a key twice, a cycle, a shared container,
/// 200,000 levels).
///
///     let file = BinaryPropertyList.assemble([
///       BinaryPropertyList.dictionary(keys: [1], values: [2]),
///       BinaryPropertyList.string("UIDs"), BinaryPropertyList.array([]),
///     ])  // {"UIDs": []}
public enum BinaryPropertyList {
  /// `object` (Foundation's property-list types) written by Foundation's
  /// `PropertyListSerialization` in binary form.
  public static func foundation(_ object: Any) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
  }

  /// Converts the file at `path` in place with `plutil -convert binary1`;
  /// false if `plutil` is not on `PATH` (Debian has none; Swift's toolchain
  /// does).
  public static func plutil(convert path: String) throws -> Bool {
    guard let plutil = tool("plutil") else { return false }
    let status = try run(plutil, ["-convert", "binary1", path])
    guard status == 0 else { throw ToolFailure(description: "plutil exited \(status)") }
    return true
  }

  /// What `python3` writes with `plistlib.dump(value, f, fmt=plistlib.FMT_BINARY)`,
  /// `value` being the Python expression `expression`; nil if `python3` is
  /// not on `PATH`.
  public static func plistlib(_ expression: String) throws -> Data? {
    guard let python = tool("python3") else { return nil }
    let directory = try TemporaryDirectory()
    let path = directory.file("out.plist")
    let script = """
      import datetime, plistlib, sys
      with open(sys.argv[1], "wb") as f:
          plistlib.dump(\(expression), f, fmt=plistlib.FMT_BINARY)
      """
    let status = try run(python, ["-c", script, path])
    guard status == 0 else { throw ToolFailure(description: "python3 exited \(status)") }
    return contents(of: path)
  }

  /// Whether `name` is an executable on `PATH`.
  public static func isAvailable(_ name: String) -> Bool { tool(name) != nil }

  /// A tool that could not make the file.
  public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
  }

  private static func tool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  // MARK: Assembling a file object by object

  /// A file of `objects` (each as ``string(_:)``, ``array(_:)``, … encode
  /// it, their references `refSize` bytes wide), whose top object is `root`.
  public static func assemble(_ objects: [[UInt8]], root: Int = 0, refSize: Int = 4) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let tableOffset = bytes.count
    for offset in offsets { bytes += bigEndian(offset, width: 8) }
    bytes += [0, 0, 0, 0, 0, 0, 8, UInt8(refSize)]
    bytes += bigEndian(objects.count, width: 8) + bigEndian(root, width: 8)
    bytes += bigEndian(tableOffset, width: 8)
    return Data(bytes)
  }

  /// An ASCII string object (`0x5n`), its bytes as given (any byte: a
  /// writer would never put one above 0x7F there).
  public static func string(_ text: String) -> [UInt8] {
    string(bytes: Array(text.utf8))
  }

  /// An ASCII string object of `bytes`.
  public static func string(bytes: [UInt8]) -> [UInt8] {
    header(0x50, count: bytes.count) + bytes
  }

  /// An array object (`0xAn`) of the objects at `references`.
  public static func array(_ references: [Int], refSize: Int = 4) -> [UInt8] {
    header(0xA0, count: references.count) + references.flatMap { bigEndian($0, width: refSize) }
  }

  /// A dictionary object (`0xDn`): the keys at `keys`, the values at `values`.
  public static func dictionary(keys: [Int], values: [Int], refSize: Int = 4) -> [UInt8] {
    header(0xD0, count: keys.count) + (keys + values).flatMap { bigEndian($0, width: refSize) }
  }

  /// An 8-byte integer object (`0x13`).
  public static func integer(_ value: Int64) -> [UInt8] {
    [0x13] + bigEndian(Int(value), width: 8)
  }

  /// A date object (`0x33`): seconds since 2001-01-01 00:00:00 UTC.
  public static func date(_ seconds: Double) -> [UInt8] {
    [0x33] + bigEndian(Int(Int64(bitPattern: seconds.bitPattern)), width: 8)
  }

  /// A keyed archiver's UID object (`0x80`, `CF$UID`).
  public static func uid(_ value: UInt8) -> [UInt8] { [0x80, value] }

  private static func header(_ type: UInt8, count: Int) -> [UInt8] {
    count < 15 ? [type | UInt8(count)] : [type | 0x0F, 0x13] + bigEndian(count, width: 8)
  }

  private static func bigEndian(_ value: Int, width: Int) -> [UInt8] {
    (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
}
