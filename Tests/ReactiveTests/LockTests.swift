import Foundation
import Testing

@testable import Locking

@Suite struct LockTests {
  /// What `nproc` prints: the processors this process may run on.
  static func nproc() throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["nproc"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  @Test("the lock spins only where the process may run on more than one processor")
  func spinsWithProcessorsToSpare() throws {
    #expect(Lock.attemptsBeforeSleeping == (try Self.nproc() > 1 ? 2000 : 0))
  }

  @Test("a lock taken and given back by many threads counts every increment")
  func mutualExclusion() {
    let lock = Lock()
    nonisolated(unsafe) var count = 0
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { lock.withLock { count += 1 } }
    }
    #expect(count == 80_000)
  }
}
