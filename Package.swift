// swift-tools-version:6.0
// Formwright: XLForm/Eureka-style form descriptors served as web forms, on libmicrohttpd.
// Layers and their arrows are described in docs/design.md; each target below is one layer.
import PackageDescription

/// Applied to every target so the whole repository reads one way.
let swiftSettings: [SwiftSetting] = [
    // Every existential is spelled `any P`, so boxing on a hot path is visible in review.
    .enableUpcomingFeature("ExistentialAny"),
    // An `import` must be visible where a member is used; keeps layer arrows honest.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Formwright",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "formwright", targets: ["formwright"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "FormServer", targets: ["FormServer"]),
        // FormServer's public API speaks these modules' types (`FormDefinition`, `FormValue`,
        // `JSONValue`): an application names them as products, not through FormServer's dependencies.
        .library(name: "FormModel", targets: ["FormModel"]),
        .library(name: "FormEngine", targets: ["FormEngine"]),
        .library(name: "FormHTML", targets: ["FormHTML"]),
        .library(name: "FormPredicate", targets: ["FormPredicate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // libmicrohttpd's door to C, through pkg-config, plus a few inline adapters in shim.h.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // HMAC-SHA256 for CSRF tokens from OpenSSL's libcrypto: vetted hashing rather than a
        // hand-written one, and a key state that copies on the stack (see its shim.h). On macOS,
        // Homebrew's openssl@3 is keg-only: PKG_CONFIG_PATH="$(brew --prefix openssl@3)/lib/pkgconfig".
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // SQLite, Debian's libsqlite3, for the submission store.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // PostgreSQL's client library, Debian's libpq, for a store that many servers share.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // libcurl, Debian's libcurl4 (OpenSSL flavour), for webhooks and e-mail: a vetted client of
        // HTTP, TLS and SMTP rather than hand-written sockets.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // Sends messages out (HTTP posts, SMTP mail) through libcurl: knows neither forms nor stores.
        .target(name: "FormDelivery", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // Where valid submissions are kept: knows SQLite and PostgreSQL, not HTTP or forms.
        .target(name: "FormStore", dependencies: ["CSQLite", "CLibPQ"], swiftSettings: swiftSettings),
        .target(
            name: "HTTPServer",
            dependencies: ["CMicroHTTPD", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The predicate language: pure Swift, knows nothing of HTTP or forms' storage.
        .target(name: "FormPredicate", swiftSettings: swiftSettings),
        .target(
            name: "FormModel",
            dependencies: ["FormPredicate", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        // A submission's life: decode, resolve hidden and disabled, validate, build the payload.
        .target(name: "FormEngine", dependencies: ["FormModel", "FormPredicate"], swiftSettings: swiftSettings),
        // HTML pages, escaped by construction, compiled once per form.
        .target(name: "FormHTML", dependencies: ["FormModel", "FormPredicate"], swiftSettings: swiftSettings),
        .target(
            name: "FormServer",
            dependencies: [
                "HTTPServer", "FormModel", "FormEngine", "FormHTML", "FormPredicate", "FormStore", "FormDelivery",
                "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The command line (`serve`, `check`, ...), for a binary that brings the forms' Swift hooks.
        .target(
            name: "FormwrightCommands",
            dependencies: [
                "FormServer",
                "FormStore",
                "HTTPServer",
                "FormModel",
                "FormEngine",
                "FormPredicate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The product: the command line with no Swift hooks.
        .executableTarget(
            name: "formwright", dependencies: ["FormwrightCommands", "FormServer"], swiftSettings: swiftSettings),
        // The examples' server (`make serve`): the command line with the examples' hooks. Never shipped.
        .executableTarget(
            name: "formwright-examples",
            dependencies: ["FormwrightCommands", "FormServer", "FormModel", "FormEngine", "HTTPServer"],
            path: "Examples/formwright-examples",
            // The cities the example option source searches, read from the repository where they are.
            exclude: ["Data"],
            swiftSettings: swiftSettings
        ),
        // Benchmarks: built on demand by bench/, never part of the product.
        .target(name: "CAllocationCounter", path: "bench/CAllocationCounter"),
        .executableTarget(
            name: "predicate-bench",
            dependencies: ["FormPredicate", "CAllocationCounter"],
            path: "bench/predicate-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "submit-bench",
            dependencies: ["FormEngine", "FormModel", "HTTPServer", "CAllocationCounter"],
            path: "bench/submit-bench",
            swiftSettings: swiftSettings
        ),
        // A webhook receiver that answers at once and notes arrivals, for bench/deliveries.sh.
        .executableTarget(
            name: "webhook-sink", dependencies: ["HTTPServer"], path: "bench/webhook-sink",
            swiftSettings: swiftSettings),
        // Heap allocations per kind of request, held to ceilings (`make allocation-test`): an executable
        // of its own, as the counter replaces the whole process's allocator.
        .executableTarget(
            name: "allocation-test",
            dependencies: ["FormServer", "HTTPServer", "CAllocationCounter"],
            path: "Tests/AllocationTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "FormPredicateTests", dependencies: ["FormPredicate"], swiftSettings: swiftSettings),
        // Child processes for the tests: programs run with posix_spawn, and a real PostgreSQL server
        // made with initdb in a temporary folder.
        .target(name: "TestProcesses", path: "Tests/TestProcesses", swiftSettings: swiftSettings),
        .testTarget(
            name: "FormStoreTests", dependencies: ["FormStore", "TestProcesses"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FormModelTests", dependencies: ["FormModel", "FormPredicate"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FormEngineTests", dependencies: ["FormEngine", "FormModel", "FormPredicate"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FormHTMLTests", dependencies: ["FormHTML", "FormModel", "FormPredicate"],
            swiftSettings: swiftSettings),
        // A raw loopback HTTP client shared by the end-to-end tests.
        .target(name: "HTTPTestClient", path: "Tests/HTTPTestClient", swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestClient"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FormServerTests",
            dependencies: [
                "FormServer", "HTTPServer", "FormEngine", "FormModel", "FormHTML", "FormStore", "HTTPTestClient",
                "TestProcesses",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FormwrightTests",
            dependencies: ["formwright", "formwright-examples", "FormStore", "HTTPTestClient", "TestProcesses"],
            swiftSettings: swiftSettings),
    ]
)
