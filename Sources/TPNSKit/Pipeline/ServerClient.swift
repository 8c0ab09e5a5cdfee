import Dispatch
import Locking
import Reactive
import TPNSProtocol

/// How the pipeline reaches the server, one attempt per subscription: a struct of
/// closures, over ``TPNSClient``, or ``failing`` for a test that must send nothing.
///
///     ServerClient(url: "http://127.0.0.1:7380/tpns") { command, _ in .just(response) }
public struct ServerClient: Sendable {
  /// Sends a command once, within the given time if any: the 2xx response,
  /// or a ``RequestFailure``.
  public var send: @Sendable (TPNSRequest, _ timeout: Duration?) -> Observable<HTTPResponse>
  /// The server's `/tpns` URL, under which the store records what it acknowledged.
  public var url: String

  /// A client with the given closure.
  public init(
    url: String,
    send: @escaping @Sendable (TPNSRequest, _ timeout: Duration?) -> Observable<HTTPResponse>
  ) {
    self.url = url
    self.send = send
  }

  /// Sends through the client `makeClient` makes (at the first request: a command that
  /// sends nothing never loads libcurl) on a worker queue, delivering the result on
  /// `scheduler`, or with `inline` on the thread that subscribes; disposing cancels.
  public static func live(
    url: String, scheduler: some SchedulerType, inline: Bool = false,
    makeClient: @escaping @Sendable () throws -> TPNSClient
  ) -> ServerClient {
    let made = LockedState<TPNSClient?>(nil)
    let client = { @Sendable () throws -> TPNSClient in
      try made.withLock { made in
        if let made { return made }
        do {
          let client = try makeClient()
          made = client
          return client
        } catch let error as TransportError {
          throw RequestFailure.transport(error)
        }
      }
    }
    let worker = inline ? nil : DispatchQueue(label: "tpns.transport")
    return ServerClient(url: url) { command, timeout in
      let response = Observable<HTTPResponse>.create { observer in
        let cancelled = BooleanDisposable()
        let send = { @Sendable in
          guard !cancelled.isDisposed else { return }
          do {
            observer.onNext(
              try client().send(command, timeout: timeout) { cancelled.isDisposed })
            observer.onCompleted()
          } catch {
            observer.onError(error)
          }
        }
        if let worker { worker.async(execute: send) } else { send() }
        return cancelled
      }
      return worker == nil ? response : response.observe(on: scheduler)
    }
  }

  /// A server that must not be asked: every request fails with
  /// ``UnexpectedDependencyCall``, which the pipeline reports as a `failed` outcome.
  public static let failing = ServerClient(url: "http://failing.invalid/tpns") { command, _ in
    .error(UnexpectedDependencyCall("ServerClient.send(\(command.name.rawValue))"))
  }
}
