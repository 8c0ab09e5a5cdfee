extension Inspector {
  /// `/_emulator/faults`: GET lists the armed rules, POST arms one more (matched
  /// after the others), DELETE disarms them all, as `POST …?count=0` does.
  func faultRules(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    try only(["GET", "POST", "DELETE"], request)
    let settings: Set<String> = [
      "status", "count", "retry_after", "cmd", "probability", "seed", "delay_ms", "drop",
    ]
    switch request.method {
    case "POST":
      let query = try form(request, allowed: settings)
      // `count=0` disarms every rule: nothing else is needed, but what is sent is checked.
      let disarms = try Self.integer(query, "count", 0...1_000_000) == 0
      let rule = try Self.rule(query, disarming: disarms)
      if let rule { faults.arm(rule) } else { faults.disarm() }
    case "DELETE":
      _ = try form(request, allowed: [])
      faults.disarm()
    default:
      // GET only shows the rules; a GET that tries to arm one is told how.
      guard try form(request, allowed: settings).pairs.isEmpty else {
        throw .badRequest(
          "GET \(request.path) only shows the armed rules; to arm one, POST "
            + "\(request.path)?status=…&count=…&cmd=…&probability=…&seed=…&delay_ms=…")
      }
    }
    let answer = JSONObject(faults: faults.current)
    if request.method != "GET" && request.method != "HEAD" { events.publish("fault", answer) }
    return .json(answer)
  }

  /// The rule a POST's parameters describe (nil when `disarming`, once they are
  /// checked); a 400 naming the parameter otherwise.
  private static func rule(_ query: FormParameters, disarming: Bool) throws(RequestError)
    -> FaultRule?
  {
    let status = try integer(query, "status", 400...599)
    let delay = try integer(query, "delay_ms", 0...60_000) ?? 0
    let drops: Bool
    switch query["drop"] {
    case nil, "0"?, "false"?: drops = false
    case "1"?, "true"?: drops = true
    case let text?: throw .badRequest("parameter 'drop' must be 1 or 0, not '\(Printable(text))'")
    }
    guard disarming || status != nil || delay > 0 || drops else {
      throw .badRequest(
        "missing parameter 'status' (400 to 599), or 'delay_ms' (1 to 60000), or 'drop=1'")
    }
    guard !(drops && status != nil) else {
      throw .badRequest(
        "parameter 'drop' closes the connection without an answer: leave out 'status'")
    }
    let retryAfter = try integer(query, "retry_after", 0...86_400)
    guard retryAfter == nil || status != nil else {
      throw .badRequest("parameter 'retry_after' goes with 'status'")
    }
    if let command = query["cmd"], command.isEmpty {
      throw .badRequest("parameter 'cmd' must name a command, such as mapsync")
    }
    var probability: Double?
    if let text = query["probability"] {
      guard let value = Double(text), value > 0, value <= 1 else {
        throw .badRequest(
          "parameter 'probability' must be a number above 0 and at most 1, such as 0.25, not "
            + "'\(Printable(text))'")
      }
      probability = value
    }
    if query["seed"] != nil, probability == nil {
      throw .badRequest("parameter 'seed' goes with 'probability'")
    }
    let seed =
      try integer(query, "seed", 0...Int.max).map(UInt64.init) ?? UInt64.random(in: 0...(1 << 53))
    if disarming { return nil }
    // With a chance, a rule lasts until disarmed unless it is given a count.
    let count = try integer(query, "count", 1...1_000_000) ?? (probability == nil ? 1 : nil)
    return FaultRule(
      status: status, remaining: count, command: query["cmd"], probability: probability,
      seed: seed, delayMilliseconds: delay, drops: drops, retryAfter: retryAfter)
  }
}
