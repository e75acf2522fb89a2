import FormEngine
import FormModel
import Foundation

/// A form's kept submissions as a table, for CSV: its id and when it came (for an editable form, its
/// version and when that was saved too), then one column per tagged row that takes input, in page
/// order, headed by the row's title, and for a multivalued section one column per item it may hold,
/// numbered.
///
/// A cell a spreadsheet would run as a formula (one starting `=`, `+`, `-`, `@`, a tab or a CR) is
/// written with a `'` before it: a person's answer must never become a command when the file is opened.
public struct SubmissionTable: Sendable {
    private enum Column: Sendable {
        case row(tag: String)
        case item(tag: String, position: Int)
    }

    private let columns: [Column]
    /// Whether the form's submissions are changed later: each row says its version, and when it was saved.
    private let editable: Bool
    /// The header line's cells.
    public let header: [String]
    /// The titles of the answers' columns, as written (the header's after its id and times).
    let rowTitles: [String]
    /// Which answers' columns hold a secret (a password, kept as a hash): a page shows none of it.
    let secret: [Bool]

    /// The table of `form`'s submissions.
    public init(form: CompiledForm) {
        var columns: [Column] = []
        var secret: [Bool] = []
        editable = form.form.editable
        var header = ["id", "received"] + (editable ? ["version", "edited"] : [])
        for section in form.sections {
            if let tag = section.section.multivaluedTag {
                let title = section.itemTitle.isEmpty ? tag : section.itemTitle
                for position in 0..<section.section.itemCap {
                    columns.append(.item(tag: tag, position: position))
                    secret.append(section.section.rowTemplate?.type.isSecret ?? false)
                    header.append("\(title) \(position + 1)")
                }
                continue
            }
            for index in section.rows {
                let row = form.rows[index].row
                guard row.type.takesInput, let tag = row.tag else { continue }
                columns.append(.row(tag: tag))
                secret.append(row.type.isSecret)
                header.append(row.title ?? tag)
            }
        }
        self.columns = columns
        rowTitles = Array(header.dropFirst(editable ? 4 : 2))
        self.secret = secret
        self.header = header.map(Self.neutralized)
    }

    /// The cells of one submission: its `id`, its `received` time (its `version` and the time it was
    /// `edited`, for an editable form), and its `httpParameters` (JSON text, as a store keeps it) laid
    /// out in the columns.
    public func row(
        id: String, received: String, version: Int = 1, edited: String? = nil, httpParameters: String
    ) -> [String] {
        var cells = [id, received]
        if editable { cells += [String(version), edited ?? ""] }
        return (cells + answers(httpParameters: httpParameters)).map(Self.neutralized)
    }

    /// The answers' cells of a submission whose `httpParameters` are these (JSON text), as written:
    /// for a page, which escapes them, not a spreadsheet.
    func answers(httpParameters: String) -> [String] {
        // FormEngine's reader, the one submissions are read with: an export reads a million of these.
        var values: [String: JSONValue] = [:]
        if case .object(let members)? = try? JSONValue(parsing: httpParameters.utf8) {
            for (key, value) in members { values[key] = value }
        }
        var cells: [String] = []
        for column in columns {
            switch column {
            case .row(let tag):
                cells.append(values[tag].map(Self.text) ?? "")
            case .item(let tag, let position):
                guard case .array(let items)? = values[tag], position < items.count else {
                    cells.append("")
                    continue
                }
                cells.append(Self.text(items[position]))
            }
        }
        return cells
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

    /// A value of a payload, as a cell shows it: a list's values joined by `, `, a file by its name,
    /// null as an empty cell, a number as JSON writes it.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .array(let values): values.map(text).joined(separator: ", ")
        case .object(let members):
            members.first { $0.0 == "filename" }.map { text($0.1) } ?? members.map(\.0).sorted().joined(separator: ", ")
        }
    }
}
