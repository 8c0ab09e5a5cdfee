#if canImport(Glibc)
  import Glibc
#endif

extension Array where Element == String {
  /// Whether the array holds `text`, compared byte for byte (memcmp of the
  /// UTF-8 each string holds in place): `contains(_:)` went through
  /// `String`'s comparison, 125 to 250 instructions a string, milliseconds
  /// for a 10,000-UID list. The same answer for strings of one normal form,
  /// as the store's UIDs (letters and digits) are.
  func containsBytes(of text: String) -> Bool {
    guard !text.isEmpty else { return contains(text) }
    return [UInt8](text.utf8).withUnsafeBytes { wanted in
      withUnsafeBufferPointer { strings in
        strings.contains { string in
          string.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count == wanted.count
              && memcmp(bytes.baseAddress!, wanted.baseAddress!, wanted.count) == 0
          } ?? (string == text)
        }
      }
    }
  }
}
