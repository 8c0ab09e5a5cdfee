/// The names of an option or flag, as swift-argument-parser spells them:
/// `.long` (from the property: `portFile` is `--port-file`), `.shortAndLong`,
/// `.customLong("db")`, `[.customLong("quiet"), .customShort("q")]`.
public struct NameSpecification: Sendable, ExpressibleByArrayLiteral {
  /// One name.
  public enum Element: Sendable {
    /// `--` and the property's name in kebab case.
    case long
    /// `-` and the property's name's first letter.
    case short
    /// `--` and this name.
    case customLong(String)
    /// `-` and this letter.
    case customShort(Character)
  }

  var elements: [Element]

  public init(arrayLiteral elements: Element...) { self.elements = elements }

  /// `--name`, from the property.
  public static let long: NameSpecification = [.long]
  /// `-n, --name`, from the property.
  public static let shortAndLong: NameSpecification = [.long, .short]
  /// `--name`.
  public static func customLong(_ name: String) -> NameSpecification { [.customLong(name)] }

  /// The long and short names for a property named `property`.
  func names(for property: String) -> (long: String?, short: Character?) {
    var long: String?
    var short: Character?
    for element in elements {
      switch element {
      case .long: long = property.kebabCased
      case .short: short = property.first
      case .customLong(let name): long = name
      case .customShort(let letter): short = letter
      }
    }
    return (long, short)
  }
}

extension String {
  /// `portFile` → `port-file`; `requireHTTPS` → `require-https`.
  var kebabCased: String {
    var output = ""
    let characters = Array(self)
    for (index, character) in characters.enumerated() {
      let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
      if character.isUppercase, index > 0, !characters[index - 1].isUppercase || nextIsLower {
        output.append("-")
      }
      output += character.lowercased()
    }
    return output
  }
}
