import Locking

extension ObservableType {
  /// Shares one subscription to this sequence among all subscribers, and
  /// replays the newest `replay` elements to each new one. The first
  /// subscriber connects; when the last leaves, or on an error or completion,
  /// the connection ends and the buffer is cleared (RxSwift's `.whileConnected`).
  ///
  ///     let tokenValid = token.map(PushToken.isValid).share(replay: 1)
  public func share(replay: Int = 0) -> Observable<Element> {
    precondition(replay >= 0, "share needs a replay count of zero or more")
    let connection = ShareReplayConnection(source: self.asObservable(), replay: replay)
    return Observable.create { observer in connection.subscribe(observer) }
  }
}

/// The shared state of one `share(replay:)`, handled one message at a time.
private final class ShareReplayConnection<Element: Sendable>: @unchecked Sendable {
  // @unchecked: the `drain*` properties are only touched by `handle`, which the
  // drain runs on one thread at a time; `keys` has its own lock.

  private enum Message {
    case subscribe(UInt64, AnyObserver<Element>)
    case unsubscribe(UInt64)
    case event(UInt64, Event<Element>)
  }

  private let source: Observable<Element>
  private let replay: Int
  private let keys = LockedState<UInt64>(0)
  private var drainObservers: [(key: UInt64, observer: AnyObserver<Element>)] = []
  private var drainBuffer: [Element] = []
  private var drainConnection: SingleAssignmentDisposable?
  private var drainGeneration: UInt64 = 0
  private var drain: SerialDrain<Message>!

  init(source: Observable<Element>, replay: Int) {
    self.source = source
    self.replay = replay
    drain = SerialDrain { [unowned self] message in self.handle(message) }
  }

  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let key = keys.withLock { key in
      defer { key += 1 }
      return key
    }
    // A sink per subscription: once disposed, queued events no longer reach it.
    let sink = ObserverSink(observer)
    drain.submit(.subscribe(key, sink.asObserver()))
    sink.setUpstream(Disposables.create { [self] in drain.submit(.unsubscribe(key)) })
    return sink
  }

  private func handle(_ message: Message) {
    switch message {
    case .subscribe(let key, let observer):
      drainObservers.append((key, observer))
      for element in drainBuffer { observer.onNext(element) }
      if drainConnection == nil { connect() }

    case .unsubscribe(let key):
      guard let index = drainObservers.firstIndex(where: { $0.key == key }) else { return }
      drainObservers.remove(at: index)
      if drainObservers.isEmpty { disconnect() }

    case .event(let generation, let event):
      guard generation == drainGeneration, drainConnection != nil else { return }
      let observers = drainObservers
      if case .next(let element) = event, replay > 0 {
        drainBuffer.append(element)
        if drainBuffer.count > replay { drainBuffer.removeFirst(drainBuffer.count - replay) }
      }
      if event.isStopEvent {
        drainObservers = []
        disconnect()
      }
      for (_, observer) in observers { observer.on(event) }
    }
  }

  private func connect() {
    drainGeneration += 1
    let generation = drainGeneration
    let connection = SingleAssignmentDisposable()
    drainConnection = connection
    // Events the source sends while being subscribed are queued behind this
    // message, so the new subscriber is in the list when they arrive.
    connection.setDisposable(
      source.subscribe { [self] event in drain.submit(.event(generation, event)) })
  }

  private func disconnect() {
    drainBuffer = []
    drainConnection?.dispose()
    drainConnection = nil
  }
}
