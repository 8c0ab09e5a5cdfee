import Glibc

/// Replaces a file's contents atomically and durably: after a crash or power
/// loss the file holds either the old bytes or the new ones, never a mix.
///
/// Writes a temp file in the same directory (`O_CREAT|O_EXCL|O_NOFOLLOW`,
/// mode 0600), `fsync`s it, `renameat`s it over the target and `fsync`s the
/// directory so the rename itself is on disk, all relative to the open
/// ``StoreDirectory``. On any failure the temp file is removed and the old
/// file is left as it was.
enum AtomicFile {
  /// Writes `data` to the file `name` in `directory`, mode 0600. Without
  /// `syncingDirectory` the new file is still whole on disk before it is
  /// renamed, but the rename itself may be lost to a crash.
  static func write(
    _ data: [UInt8], named name: String, in directory: StoreDirectory,
    syncingDirectory: Bool = true
  ) throws(StoreError) {
    let temporaryName = "\(name)\(temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let temporary = directory.path(of: temporaryName)
    let descriptor = openat(
      directory.descriptor, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
      0o600)
    guard descriptor >= 0 else { throw .io(operation: "create", path: temporary, errno: errno) }
    var renamed = false
    defer { if !renamed { unlinkat(directory.descriptor, temporaryName, 0) } }
    do {
      defer { close(descriptor) }
      // The umask can only remove bits; fchmod makes the mode exact either way.
      guard fchmod(descriptor, 0o600) == 0 else {
        throw .io(operation: "set the mode of", path: temporary, errno: errno)
      }
      var offset = 0
      while offset < data.count {
        let written = data.withUnsafeBufferPointer {
          Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
        if written < 0, errno == EINTR { continue }
        guard written >= 0 else { throw .io(operation: "write", path: temporary, errno: errno) }
        offset += written
      }
      guard fsync(descriptor) == 0 else {
        throw .io(operation: "flush", path: temporary, errno: errno)
      }
    }
    guard renameat(directory.descriptor, temporaryName, directory.descriptor, name) == 0 else {
      throw .io(operation: "replace", path: directory.path(of: name), errno: errno)
    }
    renamed = true
    guard syncingDirectory else { return }
    guard fsync(directory.descriptor) == 0 else {
      throw .io(operation: "flush", path: directory.path, errno: errno)
    }
  }

  private static let temporaryMarker = ".tmp-"

  /// Removes the temp files a killed writer of `name` in `directory` left
  /// behind. Only for a caller that holds the lock all writers of the file
  /// take, so that no temp file it finds is still being written.
  static func removeStaleTemporaries(of name: String, in directory: StoreDirectory) {
    let namePrefix = name + temporaryMarker
    // A descriptor of its own: reading entries moves its offset.
    let listing = openat(directory.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard listing >= 0 else { return }
    guard let stream = fdopendir(listing) else {
      close(listing)
      return
    }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard entryName.hasPrefix(namePrefix) else { continue }
      // Only our own pattern, `<pid>-<random>`, so that nothing else is touched.
      let parts = entryName.dropFirst(namePrefix.count).split(
        separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 2,
        parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
      else { continue }
      unlinkat(directory.descriptor, entryName, 0)
    }
  }

  /// The directory part of `path` (`.` for a bare file name).
  static func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = String(path[..<slash])
    return parent.isEmpty ? "/" : parent
  }

  /// The last component of `path` (all of it for a bare file name).
  static func fileName(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }
}
