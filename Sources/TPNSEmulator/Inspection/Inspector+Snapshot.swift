extension Inspector {
  /// `/_emulator/snapshot`: GET answers the whole state (``Snapshot``); PUT replaces
  /// it with the document in the body, checked whole first (a bad one is a 400 and
  /// changes nothing). The request log, the faults and `--strict` are not state.
  func snapshot(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    try only(["GET", "PUT"], request)
    // The body is the document, not a form: only the query must be empty.
    _ = try form(request, allowed: [], readingBody: false)
    if request.method == "PUT" {
      let snapshot: Snapshot
      do {
        snapshot = try Snapshot(json: request.body)
      } catch {
        throw .badRequest("the snapshot is refused: \(error)")
      }
      try RequestError.mappingDatabaseFailures { try registry.load(snapshot) }
      events.publish("snapshot", ["reset": true])
    }
    let state = try RequestError.mappingDatabaseFailures {
      try registry.read { try $0.snapshot(whitelist: registry.whitelist.uids) }
    }
    return OutgoingResponse(
      status: 200, contentType: "application/json", header: nil,
      body: request.method == "HEAD" ? [] : state.json())
  }
}
