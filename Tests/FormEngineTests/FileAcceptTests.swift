import FormModel
import Testing

@testable import FormEngine

/// An upload row's `accept`, enforced on the server (`FileAccept`).
@Suite struct FileAcceptTests {
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    private static let html = Array("<!doctype html><script>alert(1)</script>".utf8)

    private static func code(_ name: String, _ type: String, _ bytes: [UInt8], accept: [String]) -> String? {
        FileAccept.problem(UploadedFile(filename: name, contentType: type, bytes: bytes), accept: accept)?.code
    }

    @Test(
        arguments: [
            // Media types, case-insensitively, with parameters ignored.
            ("a.png", "image/png", png, ["image/png"], nil),
            ("a.png", "IMAGE/PNG; x=1", png, ["image/png"], nil),
            ("a.txt", "text/plain", Array("hi".utf8), ["image/png", "image/jpeg"], "fileType"),
            // Wildcards match the major type only.
            ("a.png", "image/png", png, ["image/*"], nil),
            ("a.html", "text/html", html, ["image/*"], "fileType"),
            // Extensions match the name's end, case-insensitively, never the whole name.
            ("REPORT.CSV", "application/octet-stream", Array("a,b".utf8), [".csv"], nil),
            (".csv", "application/octet-stream", Array("a,b".utf8), [".csv"], "fileType"),
            // A claimed well-known type must show its signature, by the declared type or the name.
            ("a.png", "image/png", html, ["image/png"], "fileContent"),
            ("a.png", "application/octet-stream", html, [".png"], "fileContent"),
            ("a.jpg", "image/jpeg", png, ["image/*"], "fileContent"),
            ("a.gif", "image/gif", Array("GIF89a....".utf8), ["image/gif"], nil),
            ("a.pdf", "application/pdf", Array("%PDF-1.7".utf8), [".pdf"], nil),
            ("a.pdf", "application/pdf", html, [".pdf"], "fileContent"),
        ] as [(String, String, [UInt8], [String], String?)])
    func acceptsOnlyWhatTheRowAccepts(name: String, type: String, bytes: [UInt8], accept: [String], code: String?) {
        #expect(Self.code(name, type, bytes, accept: accept) == code)
    }

    @Test func theMessageNamesTheAcceptedTypesInTheReadersLanguage() {
        var fields = SubmittedFields()
        fields.append("photo", .file(UploadedFile(filename: "x.html", contentType: "text/html", bytes: Self.html)))
        let english = Fixtures.engine("others").evaluate(fields, locale: "en")
        #expect(english.errors.map(\.message) == ["Photo must be a file of type image/png, image/jpeg"])
        let chinese = Fixtures.engine("others").evaluate(fields, locale: "zh-Hans")
        #expect(chinese.errors.map(\.message) == ["Photo必须是以下类型的文件：image/png, image/jpeg"])
    }

    /// An upload over the engine's limit is its row's error, named in the reader's language; one of
    /// exactly the limit is not. The limit reads as a person says it.
    @Test func aFileOverTheLimitIsRefusedWithTheLimitNamed() throws {
        let form = try #require(Fixtures.catalog.forms["others"])
        let engine = FormEngine(form: form, maximumFileSize: 1 << 20)
        func fields(_ size: Int) -> SubmittedFields {
            var fields = SubmittedFields()
            fields.append(
                "photo",
                .file(
                    UploadedFile(
                        filename: "a.png", contentType: "image/png",
                        bytes: Self.png + Array(repeating: 0, count: size - Self.png.count))))
            return fields
        }
        #expect(engine.evaluate(fields(1 << 20)).errors.isEmpty)
        let english = engine.evaluate(fields((1 << 20) + 1), locale: "en").errors
        #expect(english.map(\.code) == ["fileTooLarge"])
        #expect(english.map(\.message) == ["Photo must be a file of at most 1 MB"])
        #expect(
            engine.evaluate(fields((1 << 20) + 1), locale: "zh-Hans").errors.map(\.message) == ["Photo的文件不能超过 1 MB"])
        #expect(FormEngine(form: form).evaluate(fields((1 << 20) + 1)).errors.isEmpty)
    }

    @Test(arguments: [
        (1 << 20, "1 MB"), (512 << 10, "512 KB"), (1500, "1500 B"), (3 << 30, "3 GB"), (1536 << 10, "1536 KB"),
    ])
    func sizesReadAsAPersonSaysThem(bytes: Int, text: String) {
        #expect(Problem.sizeText(bytes) == text)
    }
}
