import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

/// UIDs a server refused as not activated (a 2xx whose body starts with
/// `422`): recorded per server, neither in line nor pending, and sent again
/// only when asked (`sync`, `watch`'s interval), never in a loop.
@Suite struct NotActivatedStateTests {
  static let t1 = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static let a = "AAAAAAAAAAAAAAAAAAAA"
  static let b = "BBBBBBBBBBBBBBBBBBBB"
  static let c = "CCCCCCCCCCCCCCCCCCCC"
  static let server = PipelineHarness.server
  static let registration = PipelineHarness.registration(t1)

  static func uids(_ texts: [String]) -> [DeviceUID] { texts.map { try! DeviceUID($0) } }

  /// Registered, `uids` desired; the server holds `held` and refused `refused`.
  static func state(_ uids: [String], held: [String], refused: [String]) -> StoreContents {
    var state = PipelineHarness.registered(token: t1, uids: uids)
    state.servers[server]?.uids = held
    state.servers[server]?.notActivated = refused
    return state
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var state: StoreContents
    var demand: Demand
    var step: ReconcileStep?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a list that lacks only the UIDs refused as not activated is not sent",
      state: state([a, b], held: [a], refused: [b]), demand: Demand(), step: nil),
    Case(
      name: "sync sends it again", state: state([a, b], held: [a], refused: [b]),
      demand: Demand(forcesList: true), step: .sendList(registration, uids([a, b]), [:])),
    Case(
      name: "watch's interval sends it again", state: state([a, b], held: [a], refused: [b]),
      demand: Demand(retriesNotActivated: true),
      step: .sendList(registration, uids([a, b]), [:])),
    Case(
      name: "a UID added since is sent, with the refused one",
      state: state([a, b, c], held: [a], refused: [b]), demand: Demand(),
      step: .sendList(registration, uids([a, b, c]), [:])),
    Case(
      name: "a refused UID removed since leaves the list in line",
      state: state([a], held: [a], refused: [b]), demand: Demand(), step: nil),
    Case(
      name: "with nothing refused, watch's interval sends nothing",
      state: state([a, b], held: [a, b], refused: []), demand: Demand(retriesNotActivated: true),
      step: nil),
    Case(
      name: "a removal refused in this reconciliation is not sent as a list",
      state: state([a], held: [a, b], refused: []), demand: Demand(refusedRemovals: [b]),
      step: nil),
    Case(
      name: "the next reconciliation sends the list without it",
      state: state([a], held: [a, b], refused: []), demand: Demand(),
      step: .sendList(registration, uids([a]), [:])),
    Case(
      name: "another change sends the list, without it",
      state: state([a, c], held: [a, b], refused: []), demand: Demand(refusedRemovals: [b]),
      step: .sendList(registration, uids([a, c]), [:])),
  ]

  @Test("the next step when the server refused UIDs as not activated", arguments: cases)
  func nextStep(_ testCase: Case) {
    #expect(
      ReconcileStep.next(in: testCase.state, at: Self.server, demand: testCase.demand)
        == testCase.step)
  }

  @Test("a refused UID is not activated: not pending, not to add, and the list does not differ")
  func difference() {
    let difference = Self.state([Self.a, Self.b], held: [Self.a], refused: [Self.b])
      .difference(at: Self.server)
    #expect(difference.notActivated == [Self.b])
    #expect(difference.toAdd == [])
    #expect(!difference.listDiffers)
    #expect(!difference.isPending)
    #expect(difference.nextCommand == nil)
    // Another phone's refusals say nothing of this one's.
    var other = Self.state([Self.a, Self.b], held: [Self.a], refused: [Self.b])
    other.servers[Self.server]?.registration = PipelineHarness.registration(
      try! PushToken(String(repeating: "2b", count: 32), os: .ios))
    #expect(other.difference(at: Self.server).notActivated == [])
  }

  @Test("the refused UIDs are written out as NotActivated and read back")
  func storeRoundTrip() throws {
    let state = Self.state([Self.a, Self.b], held: [Self.a], refused: [Self.b])
    let list = state.propertyList
    guard case .dictionary(let servers)? = list["Servers"],
      case .dictionary(let entry)? = servers[Self.server]
    else { return #expect(Bool(false)) }
    #expect(entry["NotActivated"] == .array([.string(Self.b)]))
    let read = try StoreContents(propertyList: list)
    #expect(read.servers[Self.server]?.notActivated == [Self.b])
    #expect(read.servers[Self.server]?.uids == [Self.a])
  }

  @Test(
    "a mapsync answered 422 records the rest as held and reports the named UID once; the interval sends it again"
  )
  func mapsyncRefused() {
    let harness = PipelineHarness(
      state: Self.state([Self.a, Self.b], held: [], refused: []))
    let refusal = HTTPResponse(status: 200, body: "422 not activated: \(Self.b)")
    harness.script(
      .mapsync,
      [harness.scheduler.createColdObservable([.next(50, refusal), .completed(50)]).asObservable()])
    let viewModel = SyncViewModel(environment: harness.environment)
    let sync = harness.scheduler.createHotObservable([.next(210, ()), .completed(211)])
    let events = harness.scheduler.start(disposed: 10_000) {
      viewModel.transform(.init(syncRequests: sync.asObservable())).outcomes
    }.events
    let failures = events.compactMap { event -> PipelineFailure? in
      if case .next(.failed(let failure)) = event.value { return failure }
      return nil
    }
    #expect(failures == [.notActivated(Self.uids([Self.b]), .mapsync)])
    #expect(harness.state.value.servers[Self.server]?.uids == [Self.a])
    #expect(harness.state.value.servers[Self.server]?.notActivated == [Self.b])
    #expect(harness.log.value.filter { $0.value.hasPrefix("send mapsync") }.count == 1)
  }
}
