// swift-tools-version:6.0
import PackageDescription

/// Every target is built in the Swift 6 language mode (strict concurrency).
///
/// Concrete generic types' metadata is made by calling their accessors with
/// the conformances the compiler already knows, not looked up by mangled name
/// at run time: each such lookup demangled the name and scanned the binary's
/// 3,780 conformance records to check the type's requirements (34 scans,
/// 124,000 instructions each, in one `tpns sync`). callgrind, one `tpns
/// sync`: 30.0 M instructions -> 25.4 M; its argument parsing 5.3 M -> 1.7 M.
let swift6: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]),
]

/// libstdc++ and libgcc linked into the executables (release builds), the
/// static Swift runtime being their only user: two libraries fewer to load at
/// each start, 1,670 fewer symbol lookups. `Packaging/link/libstdc++.so` is a
/// linker script naming `libstdc++.a`, found first for the runtime's
/// `-lstdc++` (a build with the dynamic Swift runtime, which brings
/// libstdc++.so.6 itself, never asks for it).
let staticRuntimes = [
  "-Xclang-linker", "-static-libgcc", "-L", Context.packageDirectory + "/Packaging/link",
]

/// `tpns` is also linked not position-independent: no relative relocations
/// to apply at each start (40,640, which copied 122 pages on write). `tpns
/// list` with 1 UID, perf stat: 379 page faults and 2.67 ms CPU as a PIE, 257
/// and 2.25 ms without; with libstdc++.so.6 too, 424 and 3.3-3.9 ms. The
/// price is a fixed address for the executable's own image (the libraries
/// and the heap are still randomised): taken for a command that runs for
/// milliseconds on the user's own files, not for `tpns-server`, a daemon
/// reading the network, which stays a PIE (start-up is nothing to it).
let fastStart: [LinkerSetting] = [
  .unsafeFlags(["-Xclang-linker", "-no-pie"] + staticRuntimes, .when(configuration: .release))
]

/// `tpns-server`: a PIE, with the runtimes linked in.
let serverLinking: [LinkerSetting] = [
  .unsafeFlags(staticRuntimes, .when(configuration: .release))
]

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

    .target(name: "Locking", swiftSettings: swift6),

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

    .target(name: "ArgumentParsing", dependencies: ["Posix", "Locking"], swiftSettings: swift6),
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
      name: "tpns", dependencies: ["TPNSCommandLine", "CLinux", "Posix"], swiftSettings: swift6,
      linkerSettings: fastStart),
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
      dependencies: ["CMicroHTTPD", "CSQLite", "Locking", "TPNSProtocol", "DurationFormatting"],
      swiftSettings: swift6
    ),
    .target(
      name: "TPNSServerCommand",
      dependencies: ["TPNSEmulator", "TPNSProtocol", "ArgumentParsing", "Posix"],
      swiftSettings: swift6
    ),
    .executableTarget(
      name: "tpns-server",
      dependencies: ["TPNSServerCommand", "CLinux", "Posix"],
      swiftSettings: swift6,
      linkerSettings: serverLinking
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
