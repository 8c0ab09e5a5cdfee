/// Where a request's form parameters come from.
enum FormDecoding {
  /// The media type a form body must have.
  static let formMediaType = "application/x-www-form-urlencoded"

  /// The parameters of `request`: its query, then (for a body) its form body.
  ///
  /// A POST may carry parameters in both; a name present in both is a duplicate,
  /// which the caller refuses. A non-empty body must be declared as
  /// `application/x-www-form-urlencoded` (else 415).
  static func parameters(of request: HTTPRequest) throws(RequestError) -> FormParameters {
    var form = FormParameters()
    if let query = request.query {
      try form.append(decoding: query.utf8)
    }
    if !request.body.isEmpty {
      guard let contentType = request.contentType, isForm(contentType) else {
        throw RequestError(
          415,
          "the body must be \(formMediaType), not "
            + (request.contentType.map { "'\(Printable($0))'" } ?? "undeclared"))
      }
      try form.append(decoding: request.body)
    }
    return form
  }

  /// Whether a `Content-Type` names the form media type (any case, parameters such
  /// as `charset` allowed). Works on bytes: it runs for every POST.
  static func isForm(_ contentType: String) -> Bool {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: isSpace)
    while let last = mediaType.last, isSpace(last) { mediaType = mediaType.dropLast() }
    let expected = formMediaType.utf8
    guard mediaType.count == expected.count else { return false }
    return zip(mediaType, expected).allSatisfy { byte, wanted in
      let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
      return lower == wanted
    }
  }
}
