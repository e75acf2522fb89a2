import FormModel
import Foundation

/// A form's kept submissions as a table, for CSV: its id and when it came, then one column per tagged
/// row that takes input, in page order, headed by the row's title, and for a multivalued section one
/// column per item it may hold, numbered.
///
/// A cell a spreadsheet would run as a formula (one starting `=`, `+`, `-`, `@`, a tab or a CR) is
/// written with a `'` before it: a person's answer must never become a command when the file is opened.
public struct SubmissionTable: Sendable {
    private enum Column: Sendable {
        case row(tag: String)
        case item(tag: String, position: Int)
    }

    private let columns: [Column]
    /// The header line's cells.
    public let header: [String]

    /// The table of `form`'s submissions.
    public init(form: CompiledForm) {
        var columns: [Column] = []
        var header = ["id", "received"]
        for section in form.sections {
            if let tag = section.section.multivaluedTag {
                let title = section.itemTitle.isEmpty ? tag : section.itemTitle
                for position in 0..<section.section.itemCap {
                    columns.append(.item(tag: tag, position: position))
                    header.append("\(title) \(position + 1)")
                }
                continue
            }
            for index in section.rows {
                let row = form.rows[index].row
                guard row.type.takesInput, let tag = row.tag else { continue }
                columns.append(.row(tag: tag))
                header.append(row.title ?? tag)
            }
        }
        self.columns = columns
        self.header = header.map(Self.neutralized)
    }

    /// The cells of one submission: its `id`, its `received` time, and its `httpParameters` (JSON
    /// text, as a store keeps it) laid out in the columns.
    public func row(id: String, received: String, httpParameters: String) -> [String] {
        let values = (try? JSONDecoder().decode([String: Value].self, from: Data(httpParameters.utf8))) ?? [:]
        var cells = [id, received]
        for column in columns {
            switch column {
            case .row(let tag):
                cells.append(values[tag]?.text ?? "")
            case .item(let tag, let position):
                guard case .list(let items)? = values[tag], position < items.count else {
                    cells.append("")
                    continue
                }
                cells.append(items[position].text)
            }
        }
        return cells.map(Self.neutralized)
    }

    /// `cells` as one CSV line (RFC 4180), CRLF at its end: a cell holding a comma, a quote or a line
    /// break is quoted, its quotes doubled.
    public static func csvLine(_ cells: [String]) -> String {
        cells.map { cell in
            // By scalar: a CRLF is one `Character`, equal to neither CR nor LF.
            guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
                return cell
            }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }

    /// `cell`, with a `'` first when a spreadsheet would read it as a formula.
    static func neutralized(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return cell }
        return "'" + cell
    }

    /// A value of a payload, as a cell shows it.
    private enum Value: Decodable {
        case text(String)
        case list([Value])
        case object([String: Value])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let integer = try? container.decode(Int.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let list = try? container.decode([Value].self) {
                self = .list(list)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        /// A list's values joined by `, `; a file by its name; an empty cell for null.
        var text: String {
            switch self {
            case .text(let text): text
            case .list(let values): values.map(\.text).joined(separator: ", ")
            case .object(let members): members["filename"]?.text ?? members.keys.sorted().joined(separator: ", ")
            case .null: ""
            }
        }
    }
}
