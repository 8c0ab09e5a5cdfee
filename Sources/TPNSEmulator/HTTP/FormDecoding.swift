#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a request's form parameters come from.
enum FormDecoding {
  /// The media type a form body must have.
  static let formMediaType: StaticString = "application/x-www-form-urlencoded"

  /// The parameters of `request`: its query, then (for a body) its form body.
  ///
  /// A POST may carry parameters in both; a name present in both is a duplicate,
  /// which the caller refuses. A non-empty body must be declared as
  /// `application/x-www-form-urlencoded` (else 415).
  static func parameters(of request: IncomingRequest) throws(RequestError) -> FormParameters {
    try checkContentType(of: request)
    return try FormParameters(decoding: formBytes(of: request))
  }

  /// Refuses a body that is not declared as a form (415).
  static func checkContentType(of request: IncomingRequest) throws(RequestError) {
    guard !request.body.isEmpty else { return }
    guard let contentType = request.contentType, isForm(contentType) else {
      throw RequestError(
        415,
        "the body must be \(formMediaType), not "
          + (request.contentType.map { "'\(Printable($0))'" } ?? "undeclared"))
    }
  }

  /// The form text of a request: its query, then `&` and its body. Decoding it is
  /// the same as decoding the two parts one after the other.
  static func formBytes(of request: IncomingRequest) -> [UInt8] {
    // A form in the body alone (a POST, the usual case) is the body itself, shared.
    if request.query == nil { return request.body }
    var bytes = Array((request.query ?? "").utf8)
    if !request.body.isEmpty {
      if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
      bytes += request.body
    }
    return bytes
  }

  /// Whether a `Content-Type` names the form media type (any case, parameters such
  /// as `charset` allowed). Works on bytes: it runs for every POST.
  static func isForm(_ contentType: String) -> Bool {
    // The name compared by strncasecmp (ASCII case folding: Swift never sets a
    // locale).
    let expected = formMediaType
    var text = contentType
    return text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return false }
      var start = 0
      var end = bytes.count
      if let semicolon = memchr(base, Int32(UInt8(ascii: ";")), bytes.count) {
        end = UnsafeRawPointer(semicolon) - UnsafeRawPointer(base)
      }
      while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
      while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
      guard end - start == expected.utf8CodeUnitCount else { return false }
      return expected.utf8Start.withMemoryRebound(to: CChar.self, capacity: end - start) {
        name in
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          strncasecmp($0 + start, name, end - start) == 0
        }
      }
    }
  }
}
