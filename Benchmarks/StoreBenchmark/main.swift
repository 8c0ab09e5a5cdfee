// Times a full store write of N UIDs: encode the XML property list, write a
// temp file, fsync, rename, fsync the directory (Store.update), and a
// load. Then times PropertyList.read on the same file, parsing only (the
// project's XML reader, to a PropertyListValue), and on BINARY (the same
// list in binary form, read by libplist) if given. Prints the median and the worst of the runs in milliseconds.
// Usage: StoreBenchmark DIRECTORY [UIDS] [RUNS] [BINARY]
import Glibc
import TPNSKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  print("usage: StoreBenchmark DIRECTORY [UIDS] [RUNS] [BINARY]")
  exit(64)
}
let directory = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
let binaryPath = arguments.count > 4 ? arguments[4] : nil

let uids = (0..<count).map { index -> String in
  let digits = String(index)
  return "UID" + String(repeating: "0", count: 17 - digits.count) + digits
}

let store = Store(path: directory + "/state.plist")
var writes: [Duration] = []
var loads: [Duration] = []
let clock = ContinuousClock()
for run in 0..<runs {
  // Alternate the last UID so that every update really writes.
  var list = uids
  list[list.count - 1] = run.isMultiple(of: 2) ? "EVENEVENEVENEVENEVEN" : "ODDODDODDODDODDODDOD"
  let snapshot = list
  writes.append(try clock.measure { try store.update { $0.uids = snapshot } })
  loads.append(try clock.measure { _ = try store.load() })
}

func milliseconds(_ duration: Duration) -> String {
  let value =
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  return String(Int((value * 100).rounded())).paddedMilliseconds
}

extension String {
  /// "1234" (hundredths) as "12.34".
  var paddedMilliseconds: String {
    let padded = count < 3 ? String(repeating: "0", count: 3 - count) + self : self
    return padded.dropLast(2) + "." + padded.suffix(2)
  }
}

let sortedWrites = writes.sorted()
let sortedLoads = loads.sorted()
var status = stat()
stat(store.path, &status)
print("uids=\(count) runs=\(runs) file_bytes=\(status.st_size)")
print(
  "tpns_write_ms median=\(milliseconds(sortedWrites[runs / 2])) max=\(milliseconds(sortedWrites[runs - 1]))"
)
print(
  "tpns_load_ms median=\(milliseconds(sortedLoads[runs / 2])) max=\(milliseconds(sortedLoads[runs - 1]))"
)

/// "median=… max=…" of `durations`.
func summary(_ durations: [Duration]) -> String {
  let sorted = durations.sorted()
  return
    "median=\(milliseconds(sorted[sorted.count / 2])) max=\(milliseconds(sorted[sorted.count - 1]))"
}

/// The times of `PropertyList.read` on `bytes`, after one untimed read;
/// exits if it fails.
func timeReads(on bytes: [UInt8]) -> [Duration] {
  do {
    _ = try PropertyList.read(bytes)
  } catch {
    print("error: cannot read the file: \(error)")
    exit(1)
  }
  return (0..<runs).map { _ in clock.measure { _ = try? PropertyList.read(bytes) } }
}

// The file the last update wrote.
guard let file = fopen(store.path, "rb") else {
  print("error: cannot open \(store.path)")
  exit(1)
}
var xml: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65536)
while case let read = fread(&chunk, 1, chunk.count, file), read > 0 { xml += chunk[..<read] }
fclose(file)
print(
  "xml_read_ms (parse to PropertyListValue, same \(xml.count)-byte file) "
    + "tpns: \(summary(timeReads(on: xml)))")

if let binaryPath {
  guard let file = fopen(binaryPath, "rb") else {
    print("error: cannot open \(binaryPath)")
    exit(1)
  }
  var binary: [UInt8] = []
  while case let read = fread(&chunk, 1, chunk.count, file), read > 0 { binary += chunk[..<read] }
  fclose(file)
  print(
    "binary_read_ms (same list, \(binary.count)-byte bplist00) "
      + "libplist: \(summary(timeReads(on: binary)))")
}
