import FormEngine
import FormModel
import Testing

@testable import FormServer

/// Reading `multipart/form-data` bodies (RFC 7578) into fields.
@Suite struct MultipartFormTests {
    private static func body(_ parts: [(headers: String, content: [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            body += Array("--b\r\n\(part.headers)\r\n\r\n".utf8) + part.content + Array("\r\n".utf8)
        }
        return body + Array("--b--\r\n".utf8)
    }

    /// A part is a file when it names one, or when its type is not text: RFC 7578 §4.2 only says a sender
    /// SHOULD name a file. A part with no type, or `text/plain`, is text and must be UTF-8.
    @Test func aPartIsAFileByItsNameOrItsType() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF]
        let fields = try MultipartForm.parse(
            Self.body([
                (#"Content-Disposition: form-data; name="named"; filename="a.png""#, png),
                ("Content-Disposition: form-data; name=\"unnamed\"\r\nContent-Type: image/png", png),
                (
                    "Content-Disposition: form-data; name=\"text\"\r\nContent-Type: text/plain; charset=utf-8",
                    Array("hé".utf8)
                ),
                (#"Content-Disposition: form-data; name="plain""#, Array("hi".utf8)),
            ]), boundary: "b")
        guard case .file(let named)? = fields.first("named"), case .file(let unnamed)? = fields.first("unnamed") else {
            Issue.record("both parts must be files")
            return
        }
        #expect(named.filename == "a.png" && named.bytes == png)
        #expect(unnamed.filename == "" && unnamed.contentType == "image/png" && unnamed.bytes == png)
        #expect(fields.first("text") == .text("hé"))
        #expect(fields.first("plain") == .text("hi"))
        #expect(throws: BodyError.self) {
            try MultipartForm.parse(Self.body([(#"Content-Disposition: form-data; name="t""#, png)]), boundary: "b")
        }
    }

    /// A quoted file name unescapes `\"` and `\\` (RFC 9110 §5.6.4, as curl sends them); a backslash before
    /// anything else is kept, so an old browser's Windows path still loses its folders.
    @Test func quotedFileNamesAreUnescaped() throws {
        func filename(_ quoted: String) throws -> String? {
            let fields = try MultipartForm.parse(
                Self.body([("Content-Disposition: form-data; name=\"f\"; filename=\"\(quoted)\"", [1])]), boundary: "b")
            guard case .file(let file)? = fields.first("f") else { return nil }
            return file.filename
        }
        #expect(try filename(#"a\"b.png"#) == #"a"b.png"#)
        #expect(try filename(#"C:\pics\me.png"#) == "me.png")
        #expect(try filename(#"C:\\pics\\me.png"#) == "me.png")
        #expect(try filename("plain.png") == "plain.png")
    }
}
