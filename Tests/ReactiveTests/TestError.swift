/// Errors the tests send through sequences.
enum TestError: Error, Equatable {
  case boom
  case other
}
