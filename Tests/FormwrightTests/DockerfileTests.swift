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
        #expect(instructions("RUN").contains { $0.contains("libmicrohttpd-dev") })
        #expect(instructions("RUN").contains { $0.contains("libmicrohttpd12") && !$0.contains("-dev") })
        #expect(instructions("COPY").contains { $0.contains("--from=build") })
        #expect(instructions("COPY").contains { $0.hasPrefix("COPY Forms ") })
        #expect(instructions("COPY").contains { $0.hasPrefix("COPY Public ") })
    }

    @Test func runsAsANumericNonRootUser() throws {
        let user = try #require(instructions("USER").last)
        let uid = try #require(Int(user.dropFirst(5).split(separator: ":").first ?? ""))
        #expect(uid != 0)
    }

    @Test func listensOnAllInterfacesOnPort8080WithAHealthcheck() {
        #expect(instructions("EXPOSE") == ["EXPOSE 8080"])
        #expect(instructions("ENV").contains { $0.contains("FORMWRIGHT_HOST=0.0.0.0") })
        #expect(instructions("HEALTHCHECK").contains { $0.contains("/healthz") })
        #expect(instructions("STOPSIGNAL") == ["STOPSIGNAL SIGTERM"])
    }

    @Test func readmeDocumentsTheSameBuild() throws {
        let build = try #require(instructions("RUN").first { $0.contains("swift build") })
        let command = try #require(
            build.range(of: #"swift build -c release --static-swift-stdlib"#, options: .regularExpression))
        #expect(readme.contains(String(build[command])))
        #expect(readme.contains("docker build -t formwright ."))
        #expect(readme.contains("docker run -p 8080:8080 formwright"))
    }

    @Test func dockerignoreKeepsBuildOutputOut() throws {
        let ignore = try String(contentsOf: repositoryRoot.appendingPathComponent(".dockerignore"), encoding: .utf8)
        for entry in [".build", ".git"] { #expect(ignore.split(separator: "\n").contains(Substring(entry))) }
    }
}
