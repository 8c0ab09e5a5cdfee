// swift-tools-version:6.0
import PackageDescription

/// Every target is built in the Swift 6 language mode (strict concurrency).
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "tpns",
  products: [
    .library(name: "Reactive", targets: ["Reactive"]),
    .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
    .library(name: "TPNSProtocol", targets: ["TPNSProtocol"]),
    .library(name: "TPNSEmulator", targets: ["TPNSEmulator"]),
    .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
    .executable(name: "tpns-server", targets: ["tpns-server"]),
  ],
  targets: [
    // MARK: Reactive core

    .target(name: "Reactive", swiftSettings: swift6),
    .target(name: "ReactiveTesting", dependencies: ["Reactive"], swiftSettings: swift6),
    .testTarget(
      name: "ReactiveTests",
      dependencies: ["Reactive", "ReactiveTesting"],
      swiftSettings: swift6
    ),

    // MARK: C shims

    .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
    .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),

    // MARK: Protocol (shared by the client library and the emulator)

    .target(name: "TPNSProtocol", swiftSettings: swift6),
    .testTarget(name: "TPNSProtocolTests", dependencies: ["TPNSProtocol"], swiftSettings: swift6),

    // MARK: Command-line argument parsing

    .target(name: "ArgumentParsing", swiftSettings: swift6),
    .testTarget(
      name: "ArgumentParsingTests",
      dependencies: ["ArgumentParsing"],
      swiftSettings: swift6
    ),

    // MARK: The emulator, tpns-server

    .target(
      name: "TPNSEmulator",
      dependencies: ["CMicroHTTPD", "CSQLite", "TPNSProtocol"],
      swiftSettings: swift6
    ),
    .target(
      name: "TPNSServerCommand",
      dependencies: ["TPNSEmulator", "ArgumentParsing"],
      swiftSettings: swift6
    ),
    .executableTarget(
      name: "tpns-server",
      dependencies: ["TPNSServerCommand"],
      swiftSettings: swift6
    ),
    .testTarget(
      name: "TPNSEmulatorTests",
      dependencies: ["TPNSEmulator", "TPNSProtocol"],
      swiftSettings: swift6
    ),
    .testTarget(
      name: "TPNSServerCommandTests",
      dependencies: ["TPNSServerCommand"],
      swiftSettings: swift6
    ),
  ]
)
