/// Where a request's form parameters come from.
enum FormDecoding {
  /// The media type a form body must have.
  static let formMediaType = "application/x-www-form-urlencoded"

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
  /// as `charset` allowed). Read as bytes, not characters: it runs for every POST.
  static func isForm(_ contentType: String) -> Bool {
    var contentType = contentType
    return contentType.withUTF8 { bytes in
      let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
      let name = bytes.prefix { $0 != UInt8(ascii: ";") }
      guard let first = name.firstIndex(where: { !isBlank($0) }),
        let last = name.lastIndex(where: { !isBlank($0) })
      else { return false }
      // The media type is ASCII: an upper-case letter matches its lower case.
      return name[first...last].elementsEqual(formMediaType.utf8) { byte, expected in
        byte == expected || ((0x41...0x5A).contains(byte) && byte + 0x20 == expected)
      }
    }
  }
}
