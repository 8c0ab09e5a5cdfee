import TPNSProtocol
import Testing

/// A 2xx whose body starts with `422` refuses the UIDs it names, however it
/// names them; any other body is a success, as before.
private let a = try! DeviceUID("ABCDEFGHJKLMNPRSTUVW")
private let b = try! DeviceUID("0123456789ABCDEFGHJK")

@Suite struct NotActivatedAnswerTests {

  @Test(
    "the UIDs a body refuses, in the order sent",
    arguments: [
      ("422 not activated: ABCDEFGHJKLMNPRSTUVW", [a]),
      ("422 not activated: 0123456789ABCDEFGHJK, ABCDEFGHJKLMNPRSTUVW", [a, b]),
      ("  422\n", [a, b]),
      ("422", [a, b]),
      ("422: UID abcdefghjklmnprstuvw is not activated", [a]),
      ("422,[\"0123456789ABCDEFGHJK\"]", [b]),
      ("422 uid not in whitelist", [a, b]),
    ] as [(String, [DeviceUID])])
  func refused(body: String, uids: [DeviceUID]) {
    #expect(NotActivatedAnswer.refused(in: body, of: [a, b]) == uids)
  }

  @Test(
    "a body that does not start with the word 422 is not a refusal",
    arguments: [
      "200 ok: 2 UIDs mapped", "", "ok", "4220 something", "422x",
      "200 ok 422 ABCDEFGHJKLMNPRSTUVW",
    ])
  func success(body: String) {
    #expect(NotActivatedAnswer.refused(in: body, of: [a]) == nil)
  }

  @Test("the emulator's text is read back as a refusal of the UIDs it names")
  func roundTrip() {
    let text = NotActivatedAnswer.text(naming: [b.rawValue])
    #expect(text == "422 not activated: 0123456789ABCDEFGHJK")
    #expect(NotActivatedAnswer.refused(in: text, of: [a, b]) == [b])
  }
}
