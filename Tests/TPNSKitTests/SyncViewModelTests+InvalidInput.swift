import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

/// Input that is not valid is decided by the pipeline alone, before the
/// store or the server is touched: both are `.failing` here, so a read, a
/// write, a lock or a request would be a second outcome.
extension SyncViewModelTests {
  /// An input, the registration it is made with, and the one failure expected.
  struct InvalidInput: Sendable, CustomTestStringConvertible {
    var name: String
    var registration = Registration()
    var input: @Sendable (TestScheduler) -> SyncViewModel.Input
    var failure: PipelineFailure
    /// The failure's message, as a command prints it.
    var message: String
    var testDescription: String { name }
  }

  /// What `make` throws.
  static func identifierError(_ make: () throws(IdentifierError) -> Void) -> IdentifierError {
    do {
      try make()
    } catch {
      return error
    }
    fatalError("expected an IdentifierError")
  }

  static let shortUID = identifierError { () throws(IdentifierError) in _ = try DeviceUID("short") }
  static let ampersand = IdentifierError.character(.uid, "&", position: 4)
  static let shortToken = identifierError { () throws(IdentifierError) in
    _ = try PushToken("abc", os: .ios)
  }

  /// `value` at 210, then completed.
  static func once<T: Sendable>(_ value: T) -> @Sendable (TestScheduler) -> Observable<T> {
    { $0.createHotObservable([.next(210, value), .completed(211)]).asObservable() }
  }

  static let invalidInputs: [InvalidInput] = [
    InvalidInput(
      name: "a UID typed", input: { .init(addBatches: once([a, "BAD&UID"])($0)) },
      failure: .invalidUID("BAD&UID", ampersand),
      message: "invalid UID 'BAD&UID': character '&' at position 4 is not allowed in a UID "
        + "(only A-Z and 0-9)"),
    InvalidInput(
      name: "a UID read from a file names the file and the line",
      input: {
        .init(
          additions: once(
            .init([UIDInput(a), UIDInput("short", location: "uids.txt:3")], sending: .list))($0))
      },
      failure: .invalidUID("short", shortUID, location: "uids.txt:3"),
      message: "invalid UID 'short' at uids.txt:3: \(shortUID)"),
    InvalidInput(
      name: "a UID to map alone",
      input: { .init(additions: once(.init(["BAD&UID"], sending: .mapping))($0)) },
      failure: .invalidUID("BAD&UID", ampersand),
      message: "invalid UID 'BAD&UID': \(ampersand)"),
    InvalidInput(
      name: "a UID to rm-mapping", input: { .init(unmappings: once(.removeMapping("short"))($0)) },
      failure: .invalidUID("short", shortUID), message: "invalid UID 'short': \(shortUID)"),
    InvalidInput(
      name: "one UID of several to unregister",
      input: { .init(unmappings: once(.unregister([a, "short"]))($0)) },
      failure: .invalidUID("short", shortUID), message: "invalid UID 'short': \(shortUID)"),
    InvalidInput(
      name: "a token", input: { .init(token: once("abc")($0)) },
      failure: .invalidToken(shortToken), message: "invalid token: \(shortToken)"),
    InvalidInput(
      name: "an Android token without the phone's own ID",
      registration: Registration(os: .android, appID: Phone.defaultAppID(for: .android)),
      input: { .init(token: once("fcm-token:1")($0)) }, failure: .missingUDID(.android),
      message: "an Android phone needs its own ID: pass --udid"),
  ]

  @Test(
    "input that is not valid is one failed outcome; the store and the server are not touched",
    arguments: invalidInputs)
  func invalidInput(_ testCase: InvalidInput) {
    let scheduler = TestScheduler()
    let environment = PipelineEnvironment(
      store: .failing, server: .failing, scheduler: scheduler)
    let viewModel = SyncViewModel(environment: environment, registration: testCase.registration)
    let input = testCase.input(scheduler)
    let res = scheduler.start { viewModel.transform(input).outcomes }
    #expect(res.events == [.next(210, .failed(testCase.failure)), .completed(211)])
    #expect(testCase.failure.description == testCase.message)
  }

  @Test("the failing clients fail every call, naming it")
  func failingClients() {
    #expect(throws: UnexpectedDependencyCall("StoreClient.load")) {
      _ = try StoreClient.failing.load()
    }
    #expect(throws: UnexpectedDependencyCall("StoreClient.update")) {
      _ = try StoreClient.failing.update { _ in }
    }
    #expect(throws: UnexpectedDependencyCall("StoreClient.lockForSending")) {
      _ = try StoreClient.failing.lockForSending()
    }
    let scheduler = TestScheduler()
    let res = scheduler.start {
      ServerClient.failing.send(.event(uid: try! DeviceUID(Self.a), type: 1), nil)
    }
    #expect(res.events.count == 1)
    #expect(
      res.events.first?.value.error as? UnexpectedDependencyCall
        == UnexpectedDependencyCall("ServerClient.send(event)"))
  }
}
