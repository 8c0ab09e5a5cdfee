import TPNSProtocol

/// `cmd=hello`: answers `200 hi` and changes nothing. Apps send it to each
/// resolved address of the push host and use the first whose body holds `hi`.
struct HelloHandler: RequestHandler {
  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {}

  func apply(to registry: Registry, now: Int64, conformance: inout Conformance) throws -> String {
    "hi"
  }
}
