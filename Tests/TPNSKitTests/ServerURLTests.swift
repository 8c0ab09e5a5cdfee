import TPNSProtocol
import Testing

@testable import TPNSKit

/// A server URL taken apart for output and for the proxy rule.
@Suite struct ServerURLTests {
  @Test(
    "redacted: credentials as ***@, query values as ***, the rest as given",
    arguments: [
      ("http://push.example/tpns", "http://push.example/tpns"),
      ("http://me:pw@push.example/tpns", "http://***@push.example/tpns"),
      ("https://tok3n@push.example:8443/tpns", "https://***@push.example:8443/tpns"),
      ("http://push.example/tpns?key=k&app=a", "http://push.example/tpns?key=***&app=***"),
      ("http://push.example/tpns?k3y&&x=", "http://push.example/tpns?***&&x=***"),
      ("http://a:b@h/p?x=1#frag?y=2", "http://***@h/p?x=***#frag?y=2"),
      ("http://h/p#frag", "http://h/p#frag"),
      ("http://u:p@h?q=1", "http://***@h?q=***"),
      ("not a url", "not a url"),
    ])
  func redacted(url: String, shown: String) {
    #expect(ServerURL(url).redacted == shown)
  }

  @Test(
    "storeKey drops the credentials: a password never reaches the store",
    arguments: [
      ("http://me:pw@push.example/tpns?key=k", "http://push.example/tpns?key=k"),
      ("http://push.example/tpns", "http://push.example/tpns"),
      ("http://me@[::1]:7380/tpns", "http://[::1]:7380/tpns"),
    ])
  func storeKeyWithoutUserinfo(url: String, key: String) {
    #expect(ServerURL(url).storeKey == key)
  }

  @Test(
    "loopback: localhost, 127.0.0.0/8, ::1 (and ::ffff:127.x); nothing else",
    arguments: [
      ("http://localhost:7380/tpns", true), ("http://LOCALHOST/tpns", true),
      ("http://127.0.0.1:7380/tpns", true), ("http://127.255.3.4/tpns", true),
      ("http://u:p@127.0.0.1/tpns", true), ("http://[::1]:7380/tpns", true),
      ("http://[0:0:0:0:0:0:0:1]/tpns", true), ("http://[::ffff:127.0.0.1]/tpns", true),
      ("http://push.iotcplatform.com/tpns", false), ("http://128.0.0.1/tpns", false),
      ("http://127.0.0.1.example/tpns", false), ("http://localhost.example/tpns", false),
      ("http://[::2]/tpns", false), ("http://10.0.0.1/tpns", false),
      ("http://127.0.0.1@push.example/tpns", false), ("localhost", false),
    ])
  func loopback(url: String, isLoopback: Bool) {
    #expect(ServerURL(url).isLoopback == isLoopback)
  }

  @Test(
    "cleartext over the network: http:// to a host that is not this machine",
    arguments: [
      ("http://push.iotcplatform.com/tpns", true), ("HTTP://push.example/tpns", true),
      ("https://push.example/tpns", false), ("http://127.0.0.1:7380/tpns", false),
      ("http://localhost/tpns", false),
    ])
  func cleartext(url: String, isCleartext: Bool) {
    #expect(ServerURL(url).isCleartextOverNetwork == isCleartext)
  }

  @Test(
    "control characters (C0, DEL, C1), separators and bidi controls are escaped as \\u{..}; other text is kept",
    arguments: [
      ("plain text, ünïcode ✓", "plain text, ünïcode ✓"),
      ("a\u{1B}]0;title\u{07}b", "a\\u{1b}]0;title\\u{7}b"),
      ("x\u{1B}[2J", "x\\u{1b}[2J"),
      ("line\rforged\nnext\ttab", "line\\u{d}forged\\u{a}next\\u{9}tab"),
      ("del\u{7F} c1\u{9B}31m nel\u{85}", "del\\u{7f} c1\\u{9b}31m nel\\u{85}"),
      ("\u{0}", "\\u{0}"),
      (
        "bidi \u{202E}reversed\u{202C} \u{2066}isolated\u{2069} lrm\u{200E} ls\u{2028}",
        "bidi \\u{202e}reversed\\u{202c} \\u{2066}isolated\\u{2069} lrm\\u{200e} ls\\u{2028}"
      ),
    ])
  func controlCharacters(text: String, escaped: String) {
    #expect(text.escapingControlCharacters == escaped)
  }
}
