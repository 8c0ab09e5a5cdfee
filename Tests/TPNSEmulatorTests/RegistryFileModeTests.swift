import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// The registry holds every phone's token: a `--db` file the emulator creates, and the
/// `-wal` and `-shm` files SQLite creates beside it, are for its user alone.
@Suite("Registry: the modes of the database files")
struct RegistryFileModeTests {
  @Test("a new database, its -wal and its -shm are created 0600")
  func newDatabase() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    let server = try TestEmulator(database: path)
    try server.registerIOS()  // a write: the log and its index exist from here on
    let modes = ["", "-wal", "-shm"].map { permissions(of: path + $0) }
    #expect(modes == [0o600, 0o600, 0o600])
  }

  @Test("an existing database keeps its mode, and its -wal and -shm take it")
  func existingDatabase() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    try TestEmulator(database: path).registerIOS()
    #expect(chmod(path, 0o640) == 0)
    for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    let server = try TestEmulator(database: path)
    try server.registerIOS(token: TestEmulator.token(2))
    let modes = ["", "-wal", "-shm"].map { permissions(of: path + $0) }
    #expect(modes == [0o640, 0o640, 0o640])
  }
}
