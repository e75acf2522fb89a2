import Foundation
import HTTPTestClient
import Testing

@testable import HTTPServer

@Suite struct StaticFilesTests {
    /// A temporary public folder with a few files, a hidden file, and links in and out.
    private func makeFolder() throws -> (root: String, outside: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "formwright-static-\(UUID().uuidString)")
        let root = base.appendingPathComponent("Public").path
        let outside = base.appendingPathComponent("secret.txt").path
        try FileManager.default.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try "body{}".write(toFile: root + "/css/site.css", atomically: true, encoding: .utf8)
        try "console.log(1)".write(toFile: root + "/app.js", atomically: true, encoding: .utf8)
        try "<p>hi</p>".write(toFile: root + "/index.html", atomically: true, encoding: .utf8)
        try "KEY=1".write(toFile: root + "/.env", atomically: true, encoding: .utf8)
        try "spaced".write(toFile: root + "/read me.txt", atomically: true, encoding: .utf8)
        try "top secret".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/alias.css", withDestinationPath: root + "/css/site.css")
        try FileManager.default.createSymbolicLink(atPath: root + "/notes.txt", withDestinationPath: root + "/.env")
        return (root, outside)
    }

    private func withStaticServer(_ body: @escaping @Sendable (Server) throws -> Void) async throws {
        let (root, _) = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        let files = try StaticFiles(folder: root)
        try await withServer(
            routes: { routes in
                routes.files("/static", files)
                routes.post("/static/upload") { _ in .text(.ok, "posted") }
            }, body)
    }

    @Test func filesAreServedWithTheirContentType() async throws {
        try await withStaticServer { server in
            let css = try request(server.port, "/static/css/site.css")
            #expect(css.status == 200)
            #expect(css.text == "body{}")
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.header("Cache-Control") == "no-cache")
            #expect(css.header("X-Content-Type-Options") == "nosniff")
            #expect(
                try request(server.port, "/static/app.js").header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(try request(server.port, "/static/index.html").header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    @Test func matchingETagGets304() async throws {
        try await withStaticServer { server in
            let first = try request(server.port, "/static/app.js")
            let etag = try #require(first.header("ETag"))
            let again = try request(server.port, "/static/app.js", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            #expect(try request(server.port, "/static/app.js", headers: ["If-None-Match": "W/\(etag)"]).status == 304)
            #expect(
                try request(server.port, "/static/app.js", headers: ["If-None-Match": "\"other\", \(etag)"]).status
                    == 304)
            #expect(try request(server.port, "/static/app.js", headers: ["If-None-Match": "\"other\""]).status == 200)
        }
    }

    @Test(arguments: [
        "/static/../Package.swift",
        "/static/%2e%2e/Package.swift",
        "/static/%2E%2E/%2E%2E/etc/passwd",
        "/static/css/..%2F..%2Fsecret.txt",
        "/static//etc/passwd",
        "/static/%2Fetc%2Fpasswd",
        "/static/leak.txt",
        "/static/.env",
        "/static/css",
        "/static/css/../../secret.txt",
    ])
    func pathsThatEscapeTheFolderAre404(target: String) async throws {
        try await withStaticServer { server in
            let response = try request(server.port, target)
            #expect(response.status == 404)
            #expect(!response.text.contains("top secret"))
        }
    }

    /// A plain target is found straight from the table; the same file reached through escapes, a query
    /// or a lowercase hex digit goes through parsing and routing. Both must answer alike.
    @Test(arguments: [
        ("/static/app.js", "/static/app%2Ejs"), ("/static/css/site.css", "/static/css%2Fsite.css"),
        ("/static/css/site.css", "/static/css/site.css?v=2"), ("/static/index.html", "/static/%69ndex.html"),
    ])
    func plainAndEscapedTargetsGetTheSameAnswer(plain: String, escaped: String) async throws {
        try await withStaticServer { server in
            let direct = try request(server.port, plain)
            let routed = try request(server.port, escaped)
            #expect(direct.status == 200 && routed.status == 200)
            #expect(direct.text == routed.text && !direct.text.isEmpty)
            #expect(direct.header("ETag") == routed.header("ETag") && direct.header("ETag") != nil)
            #expect(direct.header("Content-Type") == routed.header("Content-Type"))
            let etag = try #require(direct.header("ETag"))
            #expect(try request(server.port, plain, headers: ["If-None-Match": etag]).status == 304)
            #expect(try request(server.port, escaped, headers: ["If-None-Match": etag]).status == 304)
        }
    }

    @Test func aFileNameThatNeedsEscapingIsServedThroughTheRouter() async throws {
        try await withStaticServer { server in
            let response = try request(server.port, "/static/read%20me.txt")
            #expect(response.status == 200 && response.text == "spaced")
        }
    }

    /// A file takes GET and HEAD only; a path naming no file is a 404 for every method.
    @Test func otherMethodsOnAFileAreNotAnsweredWithIt() async throws {
        try await withStaticServer { server in
            let post = try request(server.port, "POST", "/static/app.js", body: "x")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
            // No file, no resource: a 404 whatever the method, never a 405 that says something is there.
            let missing = try request(server.port, "POST", "/static/nosuch.js", body: "x")
            #expect(missing.status == 404 && missing.header("Allow") == nil)
            #expect(try request(server.port, "POST", "/static/upload", body: "x").text == "posted")
            let head = try request(server.port, "HEAD", "/static/app.js")
            #expect(head.status == 200 && head.header("Content-Length") == "14" && head.text.isEmpty)
        }
    }

    @Test func aGetWithABodyIsRefusedEvenForAPlainFile() async throws {
        try await withStaticServer { server in
            let response = try request(server.port, "GET", "/static/app.js", body: "unexpected")
            #expect(response.status == 400)
            #expect(!response.text.contains("console.log"))
        }
    }

    /// The direct path reads only the framing fields from libmicrohttpd, so each body rule is checked
    /// on it too, with names in any case.
    @Test(arguments: [
        ("GET /static/app.js HTTP/1.1\r\nHost: x\r\ncontent-LENGTH: 5\r\n\r\nhello", "must not carry a body"),
        (
            "GET /static/app.js HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n",
            "one Content-Length"
        ),
        (
            "GET /static/app.js HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "must not carry a body"
        ),
        ("HEAD /static/app.js HTTP/1.1\r\nHost: x\r\nTRANSFER-encoding: gzip\r\n\r\n", "chunked"),
    ])
    func bodyRulesHoldOnTheDirectPath(raw: String, message: String) async throws {
        try await withStaticServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(raw)
            let response = try connection.readResponse(bodyless: raw.hasPrefix("HEAD"))
            #expect((400..<500).contains(response.status))
            if !raw.hasPrefix("HEAD") { #expect(response.text.contains(message), "\(response.text)") }
            #expect(try request(server.port, "/static/app.js").text == "console.log(1)")
        }
    }

    @Test func onlyPlainPathsAreKeyedByTarget() throws {
        let (root, _) = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        let keys = try StaticFiles(folder: root).entries(byTargetUnder: "/static").keys.sorted()
        #expect(keys == ["/static/alias.css", "/static/app.js", "/static/css/site.css", "/static/index.html"])
    }

    /// Static files and literal routes are found by one lookup of the plain target: files and GET
    /// routes for GET and HEAD, another method's routes for it alone; any other spelling, none.
    @Test func filesAndLiteralRoutesAreFoundByTheirExactTargets() throws {
        let (root, _) = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        var routes = RouterBuilder()
        routes.files("/static", try StaticFiles(folder: root))
        routes.get("/forms/event") { _ in .text(.ok, "page") }
        routes.post("/forms/event") { _ in .text(.ok, "posted") }
        let router = routes.freeze()
        for method in [HTTPMethod.get, .head] {
            guard case .file(let file)? = router.exact(for: method, rawTarget: "/static/css/site.css") else {
                Issue.record("\(method.rawValue) /static/css/site.css: the file")
                continue
            }
            #expect(!file.takeUnretainedValue().etag.isEmpty)
            guard case .route(let page)? = router.exact(for: method, rawTarget: "/forms/event") else {
                Issue.record("\(method.rawValue) /forms/event: the route")
                continue
            }
            #expect(page.takeUnretainedValue().target.segments == ["forms", "event"])
        }
        guard case .route(let post)? = router.exact(for: .post, rawTarget: "/forms/event") else {
            Issue.record("POST /forms/event: the route")
            return
        }
        let handler = post.takeUnretainedValue().handler
        #expect(
            handler(RequestView(Request(method: .post, pathSegments: ["forms", "event"]))).body.bytes
                == Array("posted".utf8))
        for (method, target) in [
            (HTTPMethod.post, "/static/app.js"), (.get, "/static/app.js?v=1"), (.get, "/forms/event/"),
            (.get, "/forms/%65vent"), (.get, "/forms"), (.put, "/forms/event"),
        ] {
            #expect(router.exact(for: method, rawTarget: target) == nil, "\(method.rawValue) \(target)")
        }
    }

    @Test func symlinkInsideTheFolderIsServed() async throws {
        try await withStaticServer { server in
            let alias = try request(server.port, "/static/alias.css")
            #expect(alias.text == "body{}")
        }
    }

    /// A plainly named link to a hidden file would publish it: it is left out, and said to be.
    @Test func aLinkToAHiddenFileIsNotServed() async throws {
        let (root, _) = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        var skipped: [String: String] = [:]
        let files = try StaticFiles(folder: root) { path, reason in skipped[path] = reason }
        #expect(!files.paths.contains("notes.txt"))
        #expect(skipped["notes.txt"] == "it links to a hidden file")
        let status = try await withServer(routes: { $0.files("/static", files) }) { server in
            try request(server.port, "/static/notes.txt").status
        }
        #expect(status == 404)
    }

    @Test func missingFolderIsAClearError() {
        #expect {
            try StaticFiles(folder: "/nonexistent/formwright")
        } throws: { error in
            "\(error)".contains("/nonexistent/formwright") && "\(error)".contains("does not exist")
        }
    }
}
