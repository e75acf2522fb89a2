import Foundation
import HTTPServer
import Testing

@testable import FormServer

@Suite struct FormServerAppTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func configuration() -> FormServerConfiguration {
        var configuration = FormServerConfiguration()
        configuration.formsFolder = root.appendingPathComponent("Forms").path
        configuration.publicFolder = root.appendingPathComponent("Public").path
        configuration.server.port = 0
        configuration.accessLog = false
        return configuration
    }

    @Test func healthzAndStaticRoutesExist() throws {
        let app = try FormServerApp(configuration: configuration(), hooks: exampleHooks())
        _ = app  // built: Public/ loaded and the router frozen without a precondition failure
        let files = try StaticFiles(folder: configuration().publicFolder)
        #expect(files.paths.contains("forms.css"))
    }

    @Test(arguments: ["forms", "public"])
    func missingFolderIsNamedInTheError(which: String) {
        var configuration = configuration()
        if which == "forms" {
            configuration.formsFolder = "/nonexistent/\(which)"
        } else {
            configuration.publicFolder = "/nonexistent/\(which)"
        }
        #expect {
            _ = try FormServerApp(configuration: configuration)
        } throws: { error in
            "\(error)".contains("'/nonexistent/\(which)' does not exist")
        }
    }

    @Test func fileInsteadOfAFolderIsNamedInTheError() {
        var configuration = configuration()
        configuration.formsFolder = root.appendingPathComponent("Package.swift").path
        #expect {
            _ = try FormServerApp(configuration: configuration)
        } throws: { error in
            "\(error)".contains("is not a folder")
        }
    }
}
