extension RequestFailure {
  /// Whether the server refused the request itself (a 4xx other than 408
  /// and 429): sending it again cannot help.
  var isRejection: Bool {
    guard case .status(let status, _, _) = underlying else { return false }
    return (400..<500).contains(status) && status != 408 && status != 429
  }

  /// Whether the server refused what a `client` request carried (400, 403,
  /// 409, 422 …), not where it went: a 404, 405 or 415 is a wrong `--server`.
  var isTokenRejection: Bool {
    guard isRejection, case .status(let status, _, _) = underlying else { return false }
    return ![404, 405, 406, 410, 413, 414, 415, 431].contains(status)
  }
}
