import TPNSProtocol
import Testing

@Suite struct PhoneFieldSyntaxTests {
  @Test(
    "appid, udid and lang accept their characters and refuse what could break the form",
    arguments: [
      ("appid", "com.tutk.cc.samples.tpns.ios", true),
      ("appid", "a&cmd=event", false),
      ("appid", "", false),
      ("appid", "app:id", false),
      ("appid", String(repeating: "a", count: 256), false),
      ("udid", "2f0c1e7a-9b3d-4c5e:phone_1.x", true),
      ("udid", "phone&cmd=x", false),
      ("udid", "phone 1", false),
      ("udid", "phone=1", false),
      ("udid", "phone%31", false),
      ("udid", "téléphone", false),
      ("udid", String(repeating: "a", count: 4097), false),
      ("lang", "zh-TW", true),
      ("lang", "en_US", true),
      ("lang", "en US", false),
      ("lang", String(repeating: "a", count: 36), false),
    ])
  func syntax(field: String, value: String, valid: Bool) {
    let violation =
      switch field {
      case "appid": PhoneFieldSyntax.appIDViolation(in: value)
      case "udid": PhoneFieldSyntax.udidViolation(in: value)
      default: PhoneFieldSyntax.languageViolation(in: value)
      }
    #expect((violation == nil) == valid)
  }
}
