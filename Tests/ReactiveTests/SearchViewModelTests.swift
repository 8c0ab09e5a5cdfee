import Reactive
import ReactiveTesting
import Testing

// The RxTest introduction's second worked example: a GitHub follower search
// ViewModel whose `state` goes loaded([]) → loading → loaded(users) or error,
// with a cold test observable standing in for the HTTP client.

struct User: Equatable, Sendable {
  let id: Int
  let name: String
}

/// The HTTP client, as a struct of closures: the live one would do a request;
/// the test one returns a test observable.
struct Client: Sendable {
  enum Failure: Error, Equatable {
    case notFound
    case unknown
  }

  var fetchFollowers: @Sendable (_ user: String) -> Observable<[User]>
}

enum SearchState: Equatable, Sendable {
  case loading
  case loaded([User])
  case error(Client.Failure)
}

final class SearchViewModel: Sendable {
  let state = BehaviorSubject<SearchState>(value: .loaded([]))
  let users = BehaviorSubject<[User]>(value: [])
  private let client: Client
  private let bag = DisposeBag()

  init(client: Client) {
    self.client = client
  }

  func searchFollowers(ofUser user: String) {
    state.onNext(.loading)
    client.fetchFollowers(user)
      .subscribe { [state, users] event in
        switch event {
        case .next(let found):
          state.onNext(.loaded(found))
          users.onNext(found)
        case .error(let error):
          state.onNext(.error(error as? Client.Failure ?? .unknown))
          users.onNext([])
        case .completed:
          break
        }
      }
      .disposed(by: bag)
  }
}

@Suite struct SearchViewModelTests {
  @Test("state goes loaded([]) → loading → loaded(users) when the request succeeds")
  func succeeded() {
    let users = [User(id: 12_091_114, name: "tunepolo")]
    let scheduler = TestScheduler(initialClock: 0)
    // 1. A recording observer.
    let observer = scheduler.createObserver(SearchState.self)
    // 2. The response, 100 ticks after the request is made.
    let response = scheduler.createColdObservable([.next(100, users)])
    // 3–4. The ViewModel over a client that answers with it.
    let viewModel = SearchViewModel(client: Client { _ in response.asObservable() })
    let bag = DisposeBag()
    // 5. Observe the state from 100; 6. search at 200.
    scheduler.scheduleAt(100) { viewModel.state.subscribe(observer).disposed(by: bag) }
    scheduler.scheduleAt(200) { viewModel.searchFollowers(ofUser: "tasanobu") }
    // 7. Run.
    scheduler.start()
    // 8. 300 = the request at 200 + the cold response's 100.
    #expect(
      observer.events == [
        .next(100, .loaded([])), .next(200, .loading), .next(300, .loaded(users)),
      ])
    #expect(response.subscriptions == [Subscription(200)])
  }

  @Test("state goes loaded([]) → loading → error when the request fails")
  func failed() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let observer = scheduler.createObserver(SearchState.self)
    let response = scheduler.createColdObservable([
      .error(100, Client.Failure.notFound, [User].self)
    ])
    let viewModel = SearchViewModel(client: Client { _ in response.asObservable() })
    let bag = DisposeBag()
    scheduler.scheduleAt(100) { viewModel.state.subscribe(observer).disposed(by: bag) }
    scheduler.scheduleAt(200) { viewModel.searchFollowers(ofUser: "nobody") }
    scheduler.start()
    #expect(
      observer.events == [
        .next(100, .loaded([])), .next(200, .loading), .next(300, .error(.notFound)),
      ])
    #expect(try viewModel.users.value() == [])
    #expect(response.subscriptions == [Subscription(200, 300)])
  }
}
