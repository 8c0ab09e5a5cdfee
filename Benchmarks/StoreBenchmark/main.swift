// Times a full store write of N UIDs: encode the XML property list, write a
// temp file, fsync, rename, fsync the directory (StateStore.update), and a
// load. Prints the median and the worst of the runs in milliseconds.
// Usage: StoreBenchmark DIRECTORY [UIDS] [RUNS]
import Glibc
import TPNSKit

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  print("usage: StoreBenchmark DIRECTORY [UIDS] [RUNS]")
  exit(64)
}
let directory = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20

let uids = (0..<count).map { index -> String in
  let digits = String(index)
  return "UID" + String(repeating: "0", count: 17 - digits.count) + digits
}

let store = StateStore(path: directory + "/state.plist")
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
