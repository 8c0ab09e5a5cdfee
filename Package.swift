// swift-tools-version:6.0
import PackageDescription

/// Every target is built in the Swift 6 language mode (strict concurrency).
/// No unsafe flags: every library product must build as another package's
/// dependency.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "tpns",
  products: [
    .executable(name: "tpns", targets: ["tpns"]),
    .executable(name: "tpns-server", targets: ["tpns-server"]),
    .library(name: "TPNSKit", targets: ["TPNSKit"]),
    .library(name: "TPNSEmulator", targets: ["TPNSEmulator"]),
    .library(name: "TPNSProtocol", targets: ["TPNSProtocol"]),
    .library(name: "Reactive", targets: ["Reactive"]),
    .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
    .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
  ],
  targets: [
    // MARK: Locking (the pthread lock every module shares; ThreadSanitizer sees it)

    .target(name: "Locking", dependencies: ["CLinux"], swiftSettings: swift6),

    // MARK: DurationFormatting (durations as text: messages, JSON, log lines)

    .target(name: "DurationFormatting", swiftSettings: swift6),
    .testTarget(
      name: "DurationFormattingTests", dependencies: ["DurationFormatting"], swiftSettings: swift6),

    // MARK: Reactive core

    .target(name: "Reactive", dependencies: ["Locking"], swiftSettings: swift6),
    .target(name: "ReactiveTesting", dependencies: ["Reactive", "Locking"], swiftSettings: swift6),
    .testTarget(
      name: "ReactiveTests",
      dependencies: ["Reactive", "ReactiveTesting", "Locking"],
      swiftSettings: swift6
    ),

    // MARK: C shims (Debian -dev packages and Linux calls, behind typed wrappers of variadic calls)

    // libcurl is loaded at run time (dlopen), not linked: see CCurl.h.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
    // GnuTLS (what libmicrohttpd serves TLS with): checking --tls-cert/--tls-key, and
    // exec --tls's throwaway certificate.
    .target(name: "CGnuTLS", linkerSettings: [.linkedLibrary("gnutls")]),
    .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
    .target(name: "CPlist", linkerSettings: [.linkedLibrary("plist-2.0")]),
    .target(name: "CLinux"),

    // MARK: Protocol (the wire, which the client library and the emulator share)

    .target(name: "TPNSProtocol", swiftSettings: swift6),
    .testTarget(name: "TPNSProtocolTests", dependencies: ["TPNSProtocol"], swiftSettings: swift6),

    // MARK: Client library

    .target(
      name: "TPNSKit",
      dependencies: [
        "Locking", "Reactive", "TPNSProtocol", "DurationFormatting", "CCurl", "CPlist",
      ],
      swiftSettings: swift6
    ),
    .testTarget(
      name: "TPNSKitTests",
      dependencies: [
        "TPNSKit", "TPNSProtocol", "TPNSEmulator", "Locking", "Reactive", "ReactiveTesting",
        "TPNSTestSupport",
      ],
      swiftSettings: swift6
    ),
    // What the suites share: temp directories, a running emulator, a silent port.
    .target(
      name: "TPNSTestSupport",
      dependencies: ["TPNSKit", "TPNSEmulator"],
      path: "Tests/TPNSTestSupport",
      swiftSettings: swift6
    ),

    // MARK: Process plumbing: whole writes to stdout/stderr, signals taken with sigwaitinfo

    .target(name: "Posix", swiftSettings: swift6),

    // MARK: Terminal: raw mode, ANSI, keys, diff-based redraw (tpns ui)

    .target(name: "CTerminal"),
    .target(name: "Terminal", dependencies: ["CTerminal", "Posix"], swiftSettings: swift6),
    .testTarget(name: "TerminalTests", dependencies: ["Terminal"], swiftSettings: swift6),

    // MARK: Command-line argument parsing

    .target(name: "ArgumentParsing", dependencies: ["Posix"], swiftSettings: swift6),
    .testTarget(
      name: "ArgumentParsingTests",
      dependencies: ["ArgumentParsing"],
      swiftSettings: swift6
    ),

    // MARK: tpns

    .target(
      name: "TPNSCommandLine",
      dependencies: [
        "ArgumentParsing", "Posix", "TPNSKit", "TPNSProtocol", "Reactive", "Locking",
        "DurationFormatting", "Terminal",
      ],
      swiftSettings: swift6
    ),
    .executableTarget(
      name: "tpns", dependencies: ["TPNSCommandLine", "CLinux", "Posix"], swiftSettings: swift6),
    .testTarget(
      name: "TPNSCommandLineTests",
      dependencies: [
        "TPNSCommandLine", "ArgumentParsing", "TPNSKit", "TPNSProtocol", "TPNSEmulator",
        "TPNSTestSupport", "Locking", "Reactive", "ReactiveTesting", "Terminal",
      ],
      swiftSettings: swift6
    ),

    // MARK: The emulator, tpns-server

    .target(
      name: "TPNSEmulator",
      dependencies: [
        "CMicroHTTPD", "CGnuTLS", "CSQLite", "Locking", "TPNSProtocol", "DurationFormatting",
      ],
      // The dashboard's page, style sheet and script, and the OpenAPI description of the
      // HTTP API: real files, embedded as bytes.
      resources: [
        .embedInCode("Dashboard/dashboard.html"), .embedInCode("Dashboard/dashboard.css"),
        .embedInCode("Dashboard/dashboard.js"), .embedInCode("Inspection/openapi.json"),
      ],
      swiftSettings: swift6
    ),
    .target(
      name: "TPNSServerCommand",
      dependencies: ["TPNSEmulator", "TPNSProtocol", "ArgumentParsing", "Posix"],
      swiftSettings: swift6
    ),
    .executableTarget(
      name: "tpns-server",
      dependencies: ["TPNSServerCommand", "Posix"],
      swiftSettings: swift6
    ),
    .testTarget(
      name: "TPNSEmulatorTests",
      dependencies: ["TPNSEmulator", "TPNSProtocol", "Locking", "TPNSTestSupport"],
      swiftSettings: swift6
    ),
    .testTarget(
      name: "TPNSServerCommandTests",
      dependencies: ["TPNSServerCommand", "TPNSProtocol", "TPNSTestSupport"],
      swiftSettings: swift6
    ),

    // MARK: Benchmarks

    .executableTarget(
      name: "StoreBenchmark",
      dependencies: ["TPNSKit"],
      path: "Benchmarks/StoreBenchmark",
      swiftSettings: swift6
    ),
  ]
)
