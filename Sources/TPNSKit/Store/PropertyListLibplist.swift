import CPlist
import Glibc

/// Reads a binary property list with libplist (Debian `libplist-dev`), the
/// library made for Apple's format: `plist_from_memory`, then its tree as a
/// ``PropertyListValue``. What libplist does not check is checked here, so
/// that a binary store is held to the rules an XML one is: a dictionary
/// holding a key twice, a string that is not valid Unicode, values nested
/// deeper than ``PropertyList/maximumDepth`` (checked on the bytes before
/// libplist reads them, with `tpns_plist_binary_shape`), and a small file
/// describing a huge tree (libplist copies a shared container for each
/// reference to it). Costs one allocation per value in libplist and one per
/// string here.
enum PropertyListLibplist {
  /// Why the file is refused; a binary file has no lines.
  private static func failure(
    _ message: String, isTooDeep: Bool = false
  ) -> PropertyListParseError {
    PropertyListParseError(line: nil, message: message, isTooDeep: isTooDeep)
  }

  /// Binary plists count seconds from 2001-01-01 00:00:00 UTC.
  static let secondsFrom1970To2001: Double = 978_307_200

  /// Whether a date read by ``read(_:)`` is the one the file holds: not one libplist
  /// 2.2 handed over saturated (beyond an Int32 of seconds since 2001, or no number),
  /// nor one within a second of 2001, whose fraction comes without its sign.
  static func isExact(secondsSince1970: Double) -> Bool {
    let sinceReferenceDate = secondsSince1970 - secondsFrom1970To2001
    return sinceReferenceDate > Double(Int32.min) && sinceReferenceDate < Double(Int32.max)
      && !(sinceReferenceDate > 0 && sinceReferenceDate < 1)
  }

  static func read(_ bytes: [UInt8]) throws(PropertyListParseError) -> PropertyListValue {
    guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else {
      throw failure(bytes.isEmpty ? "the file is empty" : "the file is larger than 4 GiB")
    }
    // The most values the file may describe: one per byte, or a million if
    // more. A file that shares nothing describes fewer values than it has bytes.
    let valueLimit = UInt64(max(bytes.count, 1_000_000))
    var nul = tpns_plist_nul()
    let shape = bytes.withUnsafeBufferPointer { buffer in
      tpns_plist_binary_shape(
        buffer.baseAddress!, buffer.count, UInt32(PropertyList.maximumDepth), valueLimit, &nul)
    }
    switch shape {
    case TPNS_PLIST_SHAPE_TOO_DEEP:
      throw failure(
        "values nest deeper than \(PropertyList.maximumDepth) levels", isTooDeep: true)
    case TPNS_PLIST_SHAPE_TOO_LARGE:
      throw failure(
        "it describes more than \(valueLimit) values (its containers are shared)")
    case TPNS_PLIST_SHAPE_MALFORMED:
      throw failure("it is not a valid binary property list (bplist00)")
    case TPNS_PLIST_SHAPE_NUL:
      throw failure(nulMessage(nul, in: bytes))
    default: break
    }
    var root: plist_t?
    bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        plist_from_memory($0.baseAddress, UInt32($0.count), &root)
      }
    }
    guard let root else { throw failure("it is not a valid binary property list (bplist00)") }
    defer { plist_free(root) }
    return try value(of: root, depth: 1)
  }

  /// Why a file whose string `nul` describes holds a NUL character is
  /// refused, naming the key (its NUL shown as `\0`).
  static func nulMessage(_ nul: tpns_plist_nul, in bytes: [UInt8]) -> String {
    let span = bytes[Int(nul.key_start)..<Int(nul.key_start + nul.key_length)]
    let key: String
    if nul.key_encoding == 2 {
      let units = stride(from: span.startIndex, to: span.endIndex, by: 2).map {
        UInt16(span[$0]) << 8 | UInt16(span[$0 + 1])
      }
      key = String(decoding: units, as: UTF16.self)
    } else {
      key = String(decoding: span, as: UTF8.self)
    }
    let shown = key.replacing("\u{0}", with: "\\0")
    let reason = "a NUL character, which no key or string tpns reads may hold"
    if nul.in_key != 0 { return "the key '\(shown)' holds \(reason)" }
    if nul.key_length == 0 { return "a string holds \(reason)" }
    return "a string under the key '\(shown)' holds \(reason)"
  }

  /// `node` as a value, `depth` levels down (the top value is at 1).
  private static func value(
    of node: plist_t, depth: Int
  ) throws(PropertyListParseError) -> PropertyListValue {
    // Checked on the file's bytes already: kept as the recursion's own bound.
    guard depth <= PropertyList.maximumDepth else {
      throw failure("values nest deeper than \(PropertyList.maximumDepth) levels", isTooDeep: true)
    }
    switch plist_get_node_type(node) {
    case PLIST_BOOLEAN:
      var flag: UInt8 = 0
      plist_get_bool_val(node, &flag)
      return .bool(flag != 0)
    case PLIST_UINT:
      // libplist keeps every integer in 64 bits; a negative one is its two's complement.
      var number: UInt64 = 0
      plist_get_uint_val(node, &number)
      return .integer(Int(Int64(bitPattern: number)))
    case PLIST_REAL:
      var number = 0.0
      plist_get_real_val(node, &number)
      return .real(number)
    case PLIST_STRING:
      var pointer: UnsafeMutablePointer<CChar>?
      plist_get_string_val(node, &pointer)
      return .string(try string(taking: pointer))
    case PLIST_DATE:
      // Seconds since 2001 split in two, the seconds rounded toward zero to an
      // Int32 and the fraction without its sign: a date beyond an Int32 comes over as
      // its least or greatest value, and one within a second of 2001 as 0 and a
      // fraction of either sign. A store holding one is refused
      // (``isExact(secondsSince1970:)``); a file to import may, in a key tpns does not take.
      var seconds: Int32 = 0
      var microseconds: Int32 = 0
      plist_get_date_val(node, &seconds, &microseconds)
      // Beyond an Int32, or not a number at all: the fraction comes over as garbage.
      // Kept as the bound itself, which a store refuses.
      if seconds == .min || seconds == .max || !(0..<1_000_000).contains(microseconds) {
        let bound = seconds == .max ? Double(Int32.max) : Double(Int32.min)
        return .date(secondsSince1970: bound + secondsFrom1970To2001)
      }
      let fraction = Double(microseconds) / 1_000_000
      let sinceReferenceDate = Double(seconds) + (seconds < 0 ? -fraction : fraction)
      return .date(secondsSince1970: sinceReferenceDate + secondsFrom1970To2001)
    case PLIST_DATA:
      var pointer: UnsafeMutablePointer<CChar>?
      var length: UInt64 = 0
      plist_get_data_val(node, &pointer, &length)
      defer { free(pointer) }
      guard let pointer else { return .data([]) }
      return .data(Array(UnsafeRawBufferPointer(start: pointer, count: Int(length))))
    case PLIST_ARRAY:
      var items: [PropertyListValue] = []
      items.reserveCapacity(Int(plist_array_get_size(node)))
      // The iterator, not plist_array_get_item: that walks the list from
      // its start each time.
      var iterator: plist_array_iter?
      plist_array_new_iter(node, &iterator)
      defer { free(iterator) }
      while true {
        var item: plist_t?
        plist_array_next_item(node, iterator, &item)
        guard let item else { break }
        items.append(try value(of: item, depth: depth + 1))
      }
      return .array(items)
    case PLIST_DICT:
      var members: [String: PropertyListValue] = [:]
      members.reserveCapacity(Int(plist_dict_get_size(node)))
      var iterator: plist_dict_iter?
      plist_dict_new_iter(node, &iterator)
      defer { free(iterator) }
      while true {
        var keyPointer: UnsafeMutablePointer<CChar>?
        var item: plist_t?
        plist_dict_next_item(node, iterator, &keyPointer, &item)
        guard let item else {
          free(keyPointer)
          break
        }
        let key = try string(taking: keyPointer)
        // libplist keeps both entries of a key written twice; the XML reader refuses it.
        guard members[key] == nil else {
          throw failure("the key '\(PropertyList.shown(key: key))' appears twice")
        }
        members[key] = try value(of: item, depth: depth + 1)
      }
      return .dictionary(members)
    case PLIST_UID:
      throw failure("it holds a keyed archiver's UID (CF$UID), which is no value tpns reads")
    default:
      throw failure("it holds a value of an unknown type")
    }
  }

  /// The UTF-8 string libplist allocated at `pointer`, which is freed.
  private static func string(
    taking pointer: UnsafeMutablePointer<CChar>?
  ) throws(PropertyListParseError) -> String {
    guard let pointer else { return "" }
    defer { free(pointer) }
    guard let text = String(validatingCString: pointer) else {
      throw failure("a string is not valid UTF-8")
    }
    return text
  }
}
