// Times a full store write of N UIDs: encode the XML property list, write a
// temp file, fsync, rename, fsync the directory (Store.update), and a
// load. Then times the two XML readers on the same file, parsing only (the
// project's PropertyListXML and libplist's plist_from_memory, each to a
// PropertyListValue), and libplist on BINARY (the same list in binary form)
// if given. Prints the median and the worst of the runs in milliseconds.
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

/// Each reader's times on `bytes`, the readers alternating run by run (so
/// that neither gets the warmer caches), after one untimed read each; exits
/// if a reader fails or the two disagree.
func timeReaders(
  _ readers: [PropertyList.Reader], on bytes: [UInt8]
) -> [PropertyList.Reader: [Duration]] {
  var times: [PropertyList.Reader: [Duration]] = [:]
  var values: [PropertyListValue] = []
  for reader in readers {
    do {
      values.append(try PropertyList.read(bytes, using: reader))
    } catch {
      print("error: \(reader.rawValue) cannot read the file: \(error)")
      exit(1)
    }
  }
  guard values.allSatisfy({ $0 == values[0] }) else {
    print("error: the readers read different values")
    exit(1)
  }
  for _ in 0..<runs {
    for reader in readers {
      times[reader, default: []].append(
        clock.measure { _ = try? PropertyList.read(bytes, using: reader) })
    }
  }
  return times
}

// The file the last update wrote: the same bytes for both XML readers.
guard let file = fopen(store.path, "rb") else {
  print("error: cannot open \(store.path)")
  exit(1)
}
var xml: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65536)
while case let read = fread(&chunk, 1, chunk.count, file), read > 0 { xml += chunk[..<read] }
fclose(file)
let xmlTimes = timeReaders([.tpns, .libplist], on: xml)
print(
  "xml_read_ms (parse to PropertyListValue, same \(xml.count)-byte file) "
    + "tpns: \(summary(xmlTimes[.tpns]!))  libplist: \(summary(xmlTimes[.libplist]!))")

if let binaryPath {
  guard let file = fopen(binaryPath, "rb") else {
    print("error: cannot open \(binaryPath)")
    exit(1)
  }
  var binary: [UInt8] = []
  while case let read = fread(&chunk, 1, chunk.count, file), read > 0 { binary += chunk[..<read] }
  fclose(file)
  let binaryTimes = timeReaders([.libplist], on: binary)
  print(
    "binary_read_ms (same list, \(binary.count)-byte bplist00) "
      + "libplist: \(summary(binaryTimes[.libplist]!))")
}
