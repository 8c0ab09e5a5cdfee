extension Inspector {
  /// `/_emulator/whitelist`: GET shows it, PUT turns it on with the UIDs of
  /// its body (the text `--whitelist` reads: one a line, `#` comments), DELETE
  /// turns it off (every UID activated). Each answer is the whitelist now.
  func whitelist(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    try only(["GET", "PUT", "DELETE"], request)
    // The body is the whitelist's text, not a form: only the query must be empty.
    _ = try form(request, allowed: [], readingBody: false)
    let whitelist = registry.whitelist
    switch request.method {
    case "PUT":
      guard let text = String(validating: request.body, as: UTF8.self) else {
        throw .badRequest("the whitelist is not UTF-8 text")
      }
      do {
        whitelist.replace(with: try Whitelist.parse(text))
      } catch {
        throw .badRequest("the whitelist's \(error)")
      }
    case "DELETE":
      whitelist.replace(with: nil)
    default:
      break
    }
    // Off: `enabled` false, every UID activated.
    let answer = JSONObject([("enabled", whitelist.uids != nil), ("uids", whitelist.uids ?? [])])
    if request.method == "PUT" || request.method == "DELETE" { events.publish("whitelist", answer) }
    return .json(answer)
  }
}
