import Testing

@testable import TPNSKit

@Suite struct RequestFailureTests {
  @Test(
    "a status failure shows the body as a person reads it: an HTML page by its title",
    arguments: [
      ("error: bad token\n", "the server answered 400: error: bad token"),
      (
        "<html><head><title>Request too big</title></head><body>Your HTTP header was too big"
          + "</body></html>", "the server answered 400: an HTML page titled 'Request too big'"
      ),
      ("<!DOCTYPE html><HTML><body>oops</body></HTML>", "the server answered 400: an HTML page"),
      ("<status>xml, not html</status>", "the server answered 400: <status>xml, not html</status>"),
      ("", "the server answered 400"),
    ])
  func htmlBody(body: String, expected: String) {
    #expect("\(RequestFailure.status(400, body: body, retryAfter: nil))" == expected)
  }
}
