// A program another package writes against TPNSKit: register a push token and
// map one camera's UID, through the same pipeline `tpns` runs.
// Usage: example SERVER_URL STORE_PATH TOKEN UID
import Glibc
import Reactive
import TPNSKit

let arguments = CommandLine.arguments
let (server, storePath, token, uid) = (arguments[1], arguments[2], arguments[3], arguments[4])

let queue = SerialDispatchQueueScheduler(label: "example.pipeline")
let environment = PipelineEnvironment(
  store: .live(Store(path: storePath)),
  server: .live(url: server, scheduler: queue) {
    TPNSClient(server: server, transport: try CurlTransport())
  },
  scheduler: queue)
let output = SyncViewModel(environment: environment).transform(
  .init(token: .just(token), addBatches: .just([uid])))
let outcomes = try output.outcomes.toBlocking(timeout: .seconds(60)).toArray()
for outcome in outcomes { print(outcome) }
if outcomes.contains(where: { if case .failed = $0 { true } else { false } }) { exit(1) }
