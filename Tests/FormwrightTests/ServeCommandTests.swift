import Foundation
import HTTPTestClient
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension CommandSuites {
    /// `formwright serve` started as a real process, answering over loopback.
    @Suite struct ServeCommandTests {
        @Test func serveAnswersHealthzAndExitsZeroOnSIGTERM() async throws {
            try await offPool {
                let server = try FormwrightProcess(["serve", "--port", "0"])
                let port = try #require(server.listeningPort(), "no listening line in: \(server.text)")
                let answer = try exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 200"))
                #expect(answer.hasSuffix("\r\n\r\nok"))
                let css = try exchange(
                    port: port, "GET /static/forms.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(css.contains("Content-Type: text/css"))
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)
                // One access log line per request, through swift-log.
                #expect(server.text.contains("formwright.access: GET /healthz 200 2B"))
                #expect(server.text.contains("shutting down signal=SIGTERM"))
            }
        }

        @Test func theExamplesHooksAreTheExamplesBinarysAlone() async throws {
            try await offPool {
                // Another folder, without the account form: the example's record hooks must not stop it.
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-forms-\(UUID())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                try FileManager.default.copyItem(
                    atPath: "Forms/pets.yaml", toPath: folder.appendingPathComponent("pets.yaml").path)
                let other = try FormwrightProcess(
                    ["serve", "--port", "0", "--forms", folder.path], binary: examplesBinary)
                let otherPort = try #require(other.listeningPort(), "no listening line in: \(other.text)")
                let pets = try exchange(
                    port: otherPort, "GET /forms/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(pets.hasPrefix("HTTP/1.1 200"))
                other.signal(SIGTERM)
                #expect(other.waitForExit() == 0)
                // The example forms: Ada's saved account, and the form written in Swift.
                let examples = try FormwrightProcess(["serve", "--port", "0"], binary: examplesBinary)
                let port = try #require(examples.listeningPort(), "no listening line in: \(examples.text)")
                let ada = try exchange(
                    port: port, "GET /forms/account?user=ada HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(ada.hasPrefix("HTTP/1.1 200"))
                #expect(ada.contains(#"name="username" value="ada""#))
                let invitation = try exchange(
                    port: port, "GET /forms/invitation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(invitation.hasPrefix("HTTP/1.1 200"))
                examples.signal(SIGTERM)
                #expect(examples.waitForExit() == 0)
                // The product registers nothing: the same folder, the account form with no stored
                // records, and no form written in Swift.
                let product = try FormwrightProcess(["serve", "--port", "0"])
                let productPort = try #require(product.listeningPort(), "no listening line in: \(product.text)")
                let blank = try exchange(
                    port: productPort,
                    "GET /forms/account?user=ada HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(blank.hasPrefix("HTTP/1.1 200"))
                #expect(!blank.contains(#"value="ada""#))
                let none = try exchange(
                    port: productPort, "GET /forms/invitation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(none.hasPrefix("HTTP/1.1 404"))
                product.signal(SIGTERM)
                #expect(product.waitForExit() == 0)
            }
        }

        @Test func sigtermLetsARequestInFlightFinish() async throws {
            try await offPool {
                let server = try FormwrightProcess(["serve", "--port", "0"])
                let port = try #require(server.listeningPort())
                // The request line is in, the headers are not: the request is in flight when SIGTERM arrives.
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(descriptor) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                var wait = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                _ = "GET /healthz HTTP/1.1\r\nHost: x\r\n".withCString { send(descriptor, $0, strlen($0), 0) }
                usleep(200_000)
                server.signal(SIGTERM)
                usleep(300_000)
                #expect(server.process.isRunning, "the server must wait for the request in flight")
                _ = "\r\n".withCString { send(descriptor, $0, strlen($0), 0) }
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = recv(descriptor, &buffer, buffer.count, 0)
                let answer = String(decoding: buffer[0..<max(count, 0)], as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 200"))
                #expect(answer.contains("Connection: close"))
                #expect(server.waitForExit() == 0)
                #expect(server.text.contains("stopped drained=true"))
            }
        }

        @Test func environmentVariablesConfigureTheServer() async throws {
            try await offPool {
                let server = try FormwrightProcess(
                    ["serve"],
                    environment: [
                        "FORMWRIGHT_PORT": "0", "FORMWRIGHT_HOST": "127.0.0.1", "FORMWRIGHT_THREADS": "1",
                        "FORMWRIGHT_MAX_HEADER": "40k",
                    ])
                let port = try #require(server.listeningPort())
                #expect(server.text.contains("threads=1"))
                #expect(
                    try exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").hasPrefix(
                        "HTTP/1.1 200"))
                // FORMWRIGHT_MAX_HEADER=40k: a 35 KB field, over the 30k default, is read; 45 KB is not.
                for (size, status) in [(35_000, "200"), (45_000, "431")] {
                    let field = "X-Padding: " + String(repeating: "p", count: size)
                    let answer = try exchange(
                        port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\(field)\r\nConnection: close\r\n\r\n")
                    #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(answer.prefix(200))")
                }
                server.signal(SIGINT)
                #expect(server.waitForExit() == 0)
            }
        }

        /// `--store sqlite:PATH` (or `FORMWRIGHT_STORE`) keeps valid submissions in a database made at
        /// start, folder and all, and names each in its JSON answer; a store it cannot use stops it.
        @Test func aStoreKeepsSubmissionsAndOneItCannotUseStopsIt() async throws {
            try await offPool {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fw-serve-\(UUID())")
                defer { try? FileManager.default.removeItem(at: folder) }
                let path = folder.appendingPathComponent("data/formwright.db").path
                let server = try FormwrightProcess(
                    ["serve", "--port", "0"], environment: ["FORMWRIGHT_STORE": "sqlite:\(path)"])
                let port = try #require(server.listeningPort(), "no listening line in: \(server.text)")
                let json = #"{"title":"Lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00"}"#
                let answer = try exchange(
                    port: port,
                    "POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
                #expect(answer.hasPrefix("HTTP/1.1 200"))
                #expect(answer.contains(#"{"id":""#))
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)
                #expect(server.text.contains("valid submissions kept") && server.text.contains("store=sqlite:\(path)"))
                #expect(FileManager.default.fileExists(atPath: path))
                let refused = try runFormwright(["serve", "--port", "0", "--store", "mysql://db"])
                #expect(refused.status == 1)
                #expect(refused.output.contains("--store 'mysql://db' names no store"))
            }
        }

        /// Without `--store`, submissions are kept in `data/formwright.db` under the working folder, made
        /// at start; `--store none` keeps nothing and says so.
        @Test func theDefaultStoreIsMadeInTheWorkingFolder() async throws {
            try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let places = [
                    "--forms", repositoryRoot.appendingPathComponent("Forms").path,
                    "--public", repositoryRoot.appendingPathComponent("Public").path,
                ]
                let server = try FormwrightProcess(
                    ["serve", "--port", "0"] + places, environment: ["FORMWRIGHT_STORE": ""], directory: folder.path)
                #expect(server.listeningPort() != nil, "\(server.text)")
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)
                #expect(server.text.contains("store=sqlite:data/formwright.db"))
                #expect(
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/formwright.db").path))
                let none = try FormwrightProcess(
                    ["serve", "--port", "0", "--store", "none"] + places, directory: folder.path)
                #expect(none.listeningPort() != nil)
                none.signal(SIGTERM)
                #expect(none.waitForExit() == 0)
                #expect(none.text.contains("valid submissions are answered but not kept (--store none)"))
            }
        }

        @Test func missingFormsFolderIsRefusedNamingIt() async throws {
            try await offPool {
                let (status, output) = try runFormwright(["serve", "--port", "0", "--forms", "/nonexistent/forms"])
                #expect(status == 1)
                #expect(output.contains("the forms folder '/nonexistent/forms' does not exist"))
            }
        }

        @Test func missingPublicFolderIsRefusedNamingIt() async throws {
            try await offPool {
                let (status, output) = try runFormwright(["serve", "--port", "0", "--public", "/nonexistent/public"])
                #expect(status == 1)
                #expect(output.contains("'/nonexistent/public' does not exist"))
            }
        }

        @Test(arguments: [
            ("FORMWRIGHT_PORT", "eighty"), ("FORMWRIGHT_THREADS", "many"), ("FORMWRIGHT_MAX_BODY", "lots"),
            ("FORMWRIGHT_ACCESS_LOG", "maybe"), ("FORMWRIGHT_LOG_LEVEL", "loud"),
        ])
        func invalidEnvironmentValueIsRefusedNamingTheVariable(name: String, value: String) async throws {
            try await offPool {
                let (status, output) = try runFormwright(["serve"], environment: [name: value])
                #expect(status != 0)
                #expect(output.contains(name))
            }
        }

        @Test func invalidFlagValuesAreRefused() async throws {
            try await offPool {
                let port = try runFormwright(["serve", "--port", "70000"])
                #expect(port.status == 1)
                #expect(port.output.contains("port 70000"))
                let body = try runFormwright(["serve", "--max-body", "ten"])
                #expect(body.status != 0)
                #expect(body.output.contains("--max-body 'ten' is not a size"))
                let header = try runFormwright(["serve", "--port", "0", "--max-header", "1k"])
                #expect(header.status == 1)
                #expect(header.output.contains("the header limit must be between 2 KiB and 1 MiB, not 1024 bytes"))
            }
        }

        /// A body limit of 0 would refuse every post; a negative one is no size.
        @Test func aBodyLimitOfZeroOrLessIsRefused() async throws {
            let (flag, negative, variable, file) = try await offPool {
                (
                    try runFormwright(["serve", "--port", "0", "--max-body", "0"]),
                    try runFormwright(["serve", "--port", "0", "--max-body=-5"]),
                    try runFormwright(["serve", "--port", "0"], environment: ["FORMWRIGHT_MAX_BODY": "0k"]),
                    try runFormwright(["serve", "--port", "0", "--max-file", "0"])
                )
            }
            #expect(flag.status == 64)
            #expect(
                flag.output.contains("--max-body '0' would refuse every request with a body: give a size of at least 1")
            )
            #expect(negative.status == 64)
            #expect(negative.output.contains("--max-body '-5' is not a size"))
            #expect(variable.status == 64)
            #expect(variable.output.contains("FORMWRIGHT_MAX_BODY '0k' would refuse every request with a body"))
            #expect(file.status == 64)
            #expect(file.output.contains("--max-file '0' would refuse every upload"))
        }

        /// A short secret and a misspelt variable are warned about at start; SIGHUP is logged and ignored:
        /// the server goes on answering until SIGTERM.
        @Test func startWarningsAndSIGHUPIsLoggedAndIgnored() async throws {
            let (output, aliveAfterHangUp, health, status) = try await offPool {
                let server = try FormwrightProcess(
                    ["serve", "--port", "0", "--threads", "1"],
                    environment: ["FORMWRIGHT_SECRET": "hunter2", "FORMWRIGHT_PROT": "9000", "FORMWRIGHT_DEBUG": "1"])
                defer { if server.process.isRunning { server.signal(SIGKILL) } }
                let port = try #require(server.listeningPort(), "no listening line in: \(server.text)")
                server.signal(SIGHUP)
                let logged = eventually { server.text.contains("SIGHUP ignored") }
                let alive = logged && server.process.isRunning
                let health = try exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                server.signal(SIGTERM)
                let status = server.waitForExit()
                return (server.text, alive, health, status)
            }
            #expect(
                output.contains(
                    "FORMWRIGHT_SECRET is 7 bytes: CSRF tokens signed with it are weak; use at least 32 random bytes, such as FORMWRIGHT_SECRET=$(openssl rand -hex 32)"
                ), "\(output)")
            #expect(
                output.contains(
                    "environment variable FORMWRIGHT_PROT is not one formwright reads, so it is ignored (did you mean FORMWRIGHT_PORT?)"
                ))
            // No known name is near: the known ones are listed, none is suggested.
            #expect(
                output.contains(
                    "environment variable FORMWRIGHT_DEBUG is not one formwright reads, so it is ignored (formwright reads FORMWRIGHT_ACCESS_LOG, "
                ))
            #expect(
                output.contains(
                    "SIGHUP ignored: formwright does not reload its forms or settings; restart it to read changes (SIGTERM stops it gracefully)"
                ))
            #expect(aliveAfterHangUp)
            #expect(health.hasPrefix("HTTP/1.1 200"))
            #expect(status == 0)
            #expect(output.contains("shutting down signal=SIGTERM"))
        }

        @Test func portInUseIsAClearError() async throws {
            try await offPool {
                let first = try FormwrightProcess(["serve", "--port", "0"])
                let port = try #require(first.listeningPort())
                let (status, output) = try runFormwright(["serve", "--port", "\(port)"])
                #expect(status == 1)
                let expected = "could not listen on 127.0.0.1:\(port): port \(port) is in use by another process"
                #expect(output.contains(expected))
                #expect(output.contains("Failed to bind to port \(port)"))
                first.signal(SIGTERM)
                #expect(first.waitForExit() == 0)
            }
        }

        @Test func helpDescribesTheCommands() async throws {
            try await offPool {
                let root = try runFormwright(["--help"])
                #expect(root.status == 0)
                #expect(root.output.contains("serve"))
                #expect(root.output.contains("NSPredicate"))
                let serve = try runFormwright(["serve", "--help"])
                #expect(serve.status == 0)
                for variable in [
                    "FORMWRIGHT_HOST", "FORMWRIGHT_PORT", "FORMWRIGHT_FORMS", "FORMWRIGHT_PUBLIC", "FORMWRIGHT_THREADS",
                    "FORMWRIGHT_MAX_BODY", "FORMWRIGHT_MAX_HEADER",
                ] {
                    #expect(serve.output.contains(variable))
                }
                // The body limit's default grows with the forms' upload rows; the help says so, not "1m" alone.
                let words = serve.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(words.contains("default: 1m, or as much as a form with upload rows needs for its files"))
            }
        }

        @Test func probeReportsHealthAndItsAbsence() async throws {
            try await offPool {
                let server = try FormwrightProcess(["serve", "--port", "0"])
                let port = try #require(server.listeningPort())
                let healthy = try runFormwright(["probe", "http://127.0.0.1:\(port)/healthz"])
                #expect(healthy.status == 0)
                #expect(healthy.output.contains("healthy: status 200"))
                // Without a URL, the port `serve` reads from the same environment: the container's
                // HEALTHCHECK follows FORMWRIGHT_PORT.
                let byEnvironment = try runFormwright(["probe"], environment: ["FORMWRIGHT_PORT": "\(port)"])
                #expect(byEnvironment.status == 0)
                #expect(byEnvironment.output.contains("from http://127.0.0.1:\(port)/healthz"))
                let missing = try runFormwright(["probe", "http://127.0.0.1:\(port)/nowhere"])
                #expect(missing.status == 1)
                server.signal(SIGTERM)
                #expect(server.waitForExit() == 0)
                let down = try runFormwright(["probe", "http://127.0.0.1:\(port)/healthz"])
                #expect(down.status == 1)
                #expect(down.output.contains("no answer"))
            }
        }
    }
}

extension CommandSuites {
    /// `serve --secure-cookies` (or FORMWRIGHT_SECURE_COOKIES=on), for a site behind HTTPS: the CSRF nonce
    /// is a `__Host-` cookie, and only that cookie vouches for a post.
    @Suite struct SecureCookieTests {
        @Test(arguments: [(["--secure-cookies"], [:]), ([], ["FORMWRIGHT_SECURE_COOKIES": "on"])])
        func theNonceIsASecureHostCookie(flags: [String], environment: [String: String]) async throws {
            try await offPool {
                let server = try FormwrightProcess(
                    ["serve", "--port", "0", "--threads", "1"] + flags,
                    environment: environment.merging(["FORMWRIGHT_SECRET": "test secret"]) { $1 })
                defer {
                    server.signal(SIGTERM)
                    _ = server.waitForExit()
                }
                let port = try #require(server.listeningPort())
                let page = try exchange(port: port, "GET /forms/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let setCookie = try #require(
                    page.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
                #expect(setCookie.hasSuffix("; Path=/; Secure; HttpOnly; SameSite=Lax"))
                let nonce = try #require(setCookie.split(separator: "=").dropFirst().first?.split(separator: ";").first)
                #expect(setCookie.hasPrefix("Set-Cookie: __Host-fw_csrf="))
                let token = try #require(page.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
                let body = "_csrf=\(token)"
                func post(_ cookie: String) throws -> String {
                    try exchange(
                        port: port,
                        "POST /forms/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: \(cookie)=\(nonce)\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                            + body)
                }
                #expect(try post("__Host-fw_csrf").hasPrefix("HTTP/1.1 303"))
                // The plain-HTTP cookie name is not read: a cookie planted without `Secure` vouches for nothing.
                #expect(try post("fw_csrf").hasPrefix("HTTP/1.1 403"))
            }
        }

        @Test func anUnknownValueIsRefusedNamingTheVariable() async throws {
            try await offPool {
                let (status, output) = try runFormwright(
                    ["serve"], environment: ["FORMWRIGHT_SECURE_COOKIES": "sometimes"])
                #expect(status != 0)
                #expect(output.contains("FORMWRIGHT_SECURE_COOKIES"))
            }
        }
    }
}
