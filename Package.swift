// swift-tools-version:6.0
import PackageDescription

/// Every target is built in the Swift 6 language mode (strict concurrency).
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "tpns",
  products: [
    .library(name: "Reactive", targets: ["Reactive"]),
    .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
    .library(name: "TPNSKit", targets: ["TPNSKit"]),
    .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
    .executable(name: "tpns", targets: ["tpns"]),
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

    // MARK: Client library

    // libcurl (Debian libcurl4-openssl-dev), behind typed wrappers of its variadic calls.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
    // What client and emulator share: command names, identifier syntax, the mapsync payload.
    .target(name: "TPNSProtocol", swiftSettings: swift6),
    .target(
      name: "TPNSKit", dependencies: ["Reactive", "TPNSProtocol", "CCurl"], swiftSettings: swift6),
    // MARK: Command line

    .target(name: "ArgumentParsing", swiftSettings: swift6),
    .target(
      name: "TPNSCommandLine", dependencies: ["ArgumentParsing", "TPNSKit"], swiftSettings: swift6),
    .executableTarget(name: "tpns", dependencies: ["TPNSCommandLine"], swiftSettings: swift6),
    .executableTarget(
      name: "StoreBenchmark", dependencies: ["TPNSKit"], path: "Benchmarks/StoreBenchmark",
      swiftSettings: swift6),
    .testTarget(
      name: "TPNSKitTests",
      dependencies: ["TPNSKit", "ReactiveTesting"],
      swiftSettings: swift6
    ),
  ]
)
