/// A strict little HTML tokenizer for the tests: it accepts what the renderer should write and
/// nothing sloppier. Every non-void element must be closed in order, attributes must not repeat,
/// `&` must start a known character reference, and `<` must start a tag.
struct MiniHTML {
    struct Element {
        let name: String
        let attributes: [String: String]
        /// Whether the element is inside a `<template>`: its content is no part of the document.
        var inTemplate = false
        /// The decoded text directly or indirectly inside the element.
        var text = ""

        subscript(_ name: String) -> String? { attributes[name] }
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var elements: [Element] = []
    /// Every decoded text node, in order.
    private(set) var texts: [String] = []

    static let voidElements: Set<String> = ["input", "meta", "link", "br", "img", "hr", "source", "area", "col", "wbr"]
    static let rawText: Set<String> = ["script", "style"]
    static let escapableRawText: Set<String> = ["textarea", "title"]

    init(_ source: String) throws {
        let chars = Array(source.unicodeScalars)
        var position = 0
        var open: [Int] = []  // indexes into elements

        func fail(_ message: String) -> Problem {
            let start = max(0, position - 40)
            let context = String(String.UnicodeScalarView(chars[start..<min(chars.count, position + 40)]))
            return Problem(description: "\(message) at \(position): …\(context)…")
        }
        func addText(_ text: String) {
            guard !text.isEmpty else { return }
            texts.append(text)
            for index in open { elements[index].text += text }
        }

        if source.lowercased().hasPrefix("<!doctype html>") { position = 15 }
        while position < chars.count {
            if chars[position] != "<" {
                var text = ""
                while position < chars.count, chars[position] != "<" {
                    text.unicodeScalars.append(chars[position])
                    position += 1
                }
                addText(try MiniHTML.decode(text, fail: fail))
                continue
            }
            if position + 1 < chars.count, chars[position + 1] == "/" {
                position += 2
                var name = ""
                while position < chars.count, chars[position] != ">" {
                    name.unicodeScalars.append(chars[position])
                    position += 1
                }
                position += 1
                guard let last = open.popLast(), elements[last].name == name.lowercased() else {
                    throw fail("unexpected </\(name)>")
                }
                continue
            }
            if source.unicodeScalars.count > position + 3,
                String(String.UnicodeScalarView(chars[position..<position + 4])) == "<!--"
            {
                throw fail("comments are not expected")
            }
            position += 1
            var name = ""
            while position < chars.count,
                chars[position].properties.isAlphabetic || ("0"..."9").contains(chars[position])
            {
                name.unicodeScalars.append(chars[position])
                position += 1
            }
            guard !name.isEmpty else { throw fail("a '<' that starts no tag") }
            name = name.lowercased()
            var attributes: [String: String] = [:]
            while true {
                while position < chars.count, chars[position].properties.isWhitespace { position += 1 }
                guard position < chars.count else { throw fail("unterminated tag") }
                if chars[position] == ">" {
                    position += 1
                    break
                }
                var attribute = ""
                while position < chars.count, !chars[position].properties.isWhitespace,
                    !["=", ">", "/"].contains(chars[position])
                {
                    attribute.unicodeScalars.append(chars[position])
                    position += 1
                }
                guard !attribute.isEmpty else { throw fail("bad attribute in <\(name)>") }
                attribute = attribute.lowercased()
                var value = ""
                if position < chars.count, chars[position] == "=" {
                    position += 1
                    guard position < chars.count, chars[position] == "\"" else {
                        throw fail("attribute \(attribute) is not double-quoted")
                    }
                    position += 1
                    var raw = ""
                    while position < chars.count, chars[position] != "\"" {
                        raw.unicodeScalars.append(chars[position])
                        position += 1
                    }
                    position += 1
                    guard !raw.contains("<") else { throw fail("raw < in attribute \(attribute)") }
                    value = try MiniHTML.decode(raw, fail: fail)
                }
                guard attributes[attribute] == nil else { throw fail("duplicate attribute \(attribute)") }
                attributes[attribute] = value
            }
            elements.append(
                Element(
                    name: name, attributes: attributes,
                    inTemplate: open.contains { elements[$0].name == "template" }))
            if MiniHTML.voidElements.contains(name) { continue }
            if MiniHTML.rawText.contains(name) || MiniHTML.escapableRawText.contains(name) {
                let end = Array("</\(name)".unicodeScalars)
                var content = ""
                while position < chars.count {
                    if position + end.count <= chars.count,
                        String(String.UnicodeScalarView(chars[position..<position + end.count])).lowercased()
                            == String(String.UnicodeScalarView(end))
                    {
                        break
                    }
                    content.unicodeScalars.append(chars[position])
                    position += 1
                }
                guard position < chars.count else { throw fail("unclosed <\(name)>") }
                let decoded = MiniHTML.rawText.contains(name) ? content : try MiniHTML.decode(content, fail: fail)
                elements[elements.count - 1].text = decoded
                for index in open { elements[index].text += decoded }
                position += end.count
                guard position < chars.count, chars[position] == ">" else { throw fail("bad </\(name)") }
                position += 1
                continue
            }
            open.append(elements.count - 1)
        }
        guard open.isEmpty else { throw Problem(description: "unclosed: \(open.map { elements[$0].name })") }
    }

    /// Decodes the character references the renderer writes; any other `&` is a failure.
    static func decode(_ text: String, fail: (String) -> Problem) throws -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semicolon) < 10
            else { throw fail("bare &") }
            let name = String(rest[rest.index(after: rest.startIndex)..<semicolon])
            switch name {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "#39": result += "'"
            default: throw fail("unknown reference &\(name);")
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The document's elements named `name`, as `querySelectorAll` finds them: none from a template.
    func all(_ name: String) -> [Element] { elements.filter { $0.name == name && !$0.inTemplate } }

    /// The document's element whose id is `id`, as `getElementById` finds it: none from a template.
    func element(id: String) -> Element? { elements.first { $0["id"] == id && !$0.inTemplate } }

    /// The elements inside `<template>`s, in order.
    var templateContent: [Element] { elements.filter(\.inTemplate) }
}
