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
      let mediaType = request.contentType.map { type in
        String(type.split(separator: ";", maxSplits: 1).first ?? "")
          .trimmingSpaces().lowercased()
      }
      guard mediaType == formMediaType else {
        throw RequestError(
          415,
          "the body must be \(formMediaType), not "
            + (request.contentType.map { "'\(Printable($0))'" } ?? "undeclared"))
      }
      try form.append(decoding: request.body)
    }
    return form
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
