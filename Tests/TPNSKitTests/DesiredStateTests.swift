import TPNSProtocol
import Testing

@testable import TPNSKit

/// A change that only records what a server acknowledged may be lost to a
/// crash (the store then says it is pending): its write does not wait for
/// the directory on disk. Anything the user asked for does.
@Suite struct DesiredStateTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"

  static func base() -> StoreContents {
    var state = StoreContents()
    state.uids = [uid]
    state.registration = StoreContentsTests.registration
    return state
  }

  @Test(
    "the desired state is the list, its settings, the registration and unknown keys; not Servers",
    arguments: [
      ("a server's acknowledgement", true),
      ("a UID added", false),
      ("a setting", false),
      ("another token", false),
      ("an unknown key", false),
    ])
  func desired(change: String, same: Bool) {
    var changed = Self.base()
    switch change {
    case "a server's acknowledgement":
      changed.servers[StoreContentsTests.a] = Acknowledgement(
        registration: StoreContentsTests.registration, uids: [Self.uid])
    case "a UID added": changed.uids.append("0123456789ABCDEFGHJK")
    case "a setting": changed.settings[Self.uid] = try! MappingSettings(interval: 30)
    case "another token":
      changed.registration = PhoneRegistration(
        token: StoreContentsTests.t2, phone: StoreContentsTests.phone)
    default: changed.otherKeys["Custom"] = .string("x")
    }
    #expect(changed.desiresTheSame(as: Self.base()) == same)
    #expect(Self.base().desiresTheSame(as: changed) == same)
  }
}
