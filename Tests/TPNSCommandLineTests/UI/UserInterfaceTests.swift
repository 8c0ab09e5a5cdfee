import ArgumentParsing
import Testing

@testable import TPNSCommandLine

/// Where `tpns ui` refuses to start: not a terminal, or one that cannot draw
/// a screen. (Scripts/ui-test.sh runs the same in a real terminal.)
@Suite struct UserInterfaceTests {
  @Test(
    "piped, TERM unset or TERM=dumb: refused with exit status 64, the reason and what to use",
    arguments: [
      (false, "xterm-256color" as String?, "tpns ui needs a terminal on standard input and output"),
      (
        true, "dumb",
        "tpns ui draws a screen, and TERM=dumb says this terminal cannot move the cursor"
      ),
      (
        true, nil,
        "tpns ui draws a screen, and TERM is not set: it cannot tell what the terminal does"
      ),
      (
        true, " ",
        "tpns ui draws a screen, and TERM is not set: it cannot tell what the terminal does"
      ),
    ])
  func refused(_ isTerminal: Bool, _ term: String?, _ message: String) throws {
    let refusal = try #require(UserInterface.refusal(isTerminal: isTerminal, term: term))
    #expect(refusal.message == message)
    #expect(refusal.exitCode == .usage)
    #expect(refusal.hint?.contains("the one-shot commands: tpns register, add") == true)
    if isTerminal { #expect(refusal.hint?.contains("TERM=xterm-256color") == true) }
  }

  @Test(
    "a terminal with a TERM that draws is let in", arguments: ["xterm-256color", "screen", "linux"])
  func accepted(_ term: String) {
    #expect(UserInterface.refusal(isTerminal: true, term: term) == nil)
  }
}
