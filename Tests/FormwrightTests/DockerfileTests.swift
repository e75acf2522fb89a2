import Foundation
import Testing

/// There is no Docker engine on the build machines: these check the Dockerfile's structure and that
/// the README says the same thing the Dockerfile does.
@Suite struct DockerfileTests {
    private let dockerfile: [String]
    private let readme: String

    init() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)
        // Join continuation lines so every instruction is one line.
        dockerfile = text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    private func instructions(_ keyword: String) -> [String] {
        dockerfile.filter { $0.uppercased().hasPrefix(keyword + " ") }
    }

    @Test func buildsInTheSwiftImageAndRunsOnDebianSlim() throws {
        let stages = instructions("FROM")
        #expect(stages.count == 2)
        #expect(stages.first?.range(of: #"^FROM swift:[0-9.]+-bookworm AS build$"#, options: .regularExpression) != nil)
        #expect(stages.last == "FROM debian:bookworm-slim")
        #expect(
            instructions("RUN").contains {
                $0.contains("libmicrohttpd12") && $0.contains("libssl3") && !$0.contains("-dev")
            })
        #expect(instructions("COPY").contains { $0.contains("--from=build") })
        #expect(instructions("COPY").contains { $0.hasPrefix("COPY Forms ") })
        #expect(instructions("COPY").contains { $0.hasPrefix("COPY Public ") })
    }

    /// The build stage installs the Debian package of every C library the manifest links
    /// (`providers: [.apt([...])]`): a library added to Package.swift and not here breaks only the image.
    @Test func buildStageInstallsEverySystemLibraryTheManifestNames() throws {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let packages = manifest.matches(of: #/\.apt\(\[([^\]]*)\]\)/#).flatMap { match in
            match.output.1.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
        }
        #expect(packages.contains("libmicrohttpd-dev"))  // the pattern finds the manifest's providers
        let build = instructions("RUN").first { $0.contains("apt-get install") }
        for package in packages { #expect(build?.contains(package) == true, "the build stage lacks \(package)") }
    }

    /// SwiftPM loads every target the manifest names, even to build one product: the build stage must
    /// copy `Sources/`, `Tests/` and every folder a custom `path:` points into.
    @Test func buildStageCopiesEveryFolderTheManifestNames() throws {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var folders: Set<String> = ["Sources", "Tests"]
        for match in manifest.matches(of: #/path:\s*"([^"]+)"/#) {
            folders.insert(String(match.output.1.split(separator: "/").first ?? match.output.1))
        }
        let buildStage = dockerfile.drop { !$0.hasPrefix("FROM swift:") }.dropFirst().prefix { !$0.hasPrefix("FROM ") }
        // `COPY [--flag...] SOURCE... DESTINATION`: the first path component of each source.
        let copied = Set(
            buildStage.filter { $0.hasPrefix("COPY ") }.flatMap { line in
                line.split(separator: " ").dropFirst().filter { !$0.hasPrefix("--") }.dropLast()
                    .map { String($0.split(separator: "/").first ?? $0) }
            })
        #expect(folders.count > 2)
        for folder in folders.sorted() {
            #expect(copied.contains(folder), "the build stage copies no \(folder)/, which Package.swift names")
        }
    }

    @Test func runsAsANumericNonRootUser() throws {
        let user = try #require(instructions("USER").last)
        let uid = try #require(Int(user.dropFirst(5).split(separator: ":").first ?? ""))
        #expect(uid != 0)
    }

    @Test func listensOnAllInterfacesOnPort8080WithAHealthcheck() {
        #expect(instructions("EXPOSE") == ["EXPOSE 8080"])
        #expect(instructions("ENV").contains { $0.contains("FORMWRIGHT_HOST=0.0.0.0") })
        // `probe` without a URL asks /healthz at FORMWRIGHT_PORT: a port written here would not follow it.
        #expect(instructions("HEALTHCHECK").contains { $0.hasSuffix(#"CMD ["/app/formwright", "probe"]"#) })
        #expect(instructions("STOPSIGNAL") == ["STOPSIGNAL SIGTERM"])
    }

    /// The documented `-v …:/app/Forms:ro` mount replaces the folder the server reads and the image ships.
    @Test func documentedFormsMountIsTheFolderServed() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let mount = try #require(text.firstMatch(of: #/-v "\$PWD/Forms:(/[^:"]+):ro"/#)?.output.1)
        #expect(instructions("ENV").contains { $0.contains("FORMWRIGHT_FORMS=\(mount) ") || $0.hasSuffix("=\(mount)") })
        #expect(instructions("COPY").contains("COPY Forms \(mount)"))
    }

    /// The image builds through `scripts/build-release`, the release build of every script, as the README says.
    @Test func readmeDocumentsTheSameBuild() throws {
        let build = try #require(instructions("RUN").first { $0.contains("scripts/build-release") })
        let command = try #require(build.range(of: "scripts/build-release --static-swift-stdlib"))
        #expect(readme.contains(String(build[command])))
        #expect(readme.contains("docker build -t formwright ."))
        #expect(readme.contains("docker run -p 8080:8080 formwright"))
        #expect(readme.contains("-v \"$PWD/Forms:/app/Forms:ro\" formwright"))  // mounting your own forms
    }

    @Test func dockerignoreKeepsBuildOutputOut() throws {
        let ignore = try String(contentsOf: repositoryRoot.appendingPathComponent(".dockerignore"), encoding: .utf8)
        for entry in [".build", ".git"] { #expect(ignore.split(separator: "\n").contains(Substring(entry))) }
    }
}
