import FormModel

extension FormEngine {
    /// Decodes `json`, a record in the `httpParameters` shape (a JSON object of tag → value, a
    /// multivalued section as a list under its `multivaluedTag`), by the form's row types, exactly as an
    /// API client's submission is decoded. Keys that name no row are ignored (a row removed since the
    /// record was saved); upload rows are never stored.
    public func stored(json: some Collection<UInt8>) throws(StoredRecordError) -> StoredValues {
        let fields: SubmittedFields
        do {
            fields = try JSONBody.parse(json)
        } catch {
            // As a JSON string: the text is no JSON value, and its line breaks must not break a log line.
            let start = String(decoding: json.prefix(StoredRecordError.valueLimit), as: UTF8.self)
            throw StoredRecordError(tag: "", message: error.description, value: JSONValue.string(start).text)
        }
        return try stored(fields)
    }

    /// `stored(json:)`, and the record read as a `JSONValue` too (for a handler that saves it again).
    public func storedRecord(json: [UInt8]) throws(StoredRecordError) -> (values: StoredValues, record: JSONValue) {
        let values = try stored(json: json)
        do {
            return (values, try JSONValue(parsing: json))
        } catch {
            // Not reached for bytes `stored(json:)` read as an object; said rather than assumed.
            let start = String(decoding: json.prefix(StoredRecordError.valueLimit), as: UTF8.self)
            throw StoredRecordError(tag: "", message: error.description, value: JSONValue.string(start).text)
        }
    }

    /// `stored(json:)` for a record held as a `JSONValue`: `ValidSubmission.httpParameters` as it came.
    public func stored(_ record: JSONValue) throws(StoredRecordError) -> StoredValues {
        try stored(json: record.bytes)
    }

    private func stored(_ fields: SubmittedFields) throws(StoredRecordError) -> StoredValues {
        var stored = StoredValues()
        let english = Messages(locale: "en", overrides: [:])
        for compiled in form.rows {
            let row = compiled.row
            guard row.type.takesInput, row.type.valueKind != .file, let tag = row.tag, fields.contains(tag),
                !form.sections[compiled.sectionIndex].section.isMultivalued
            else { continue }
            let sent = fields.values(named: tag)
            let decoded =
                if row.optionsFrom != nil {
                    // A kept value was confirmed when it was kept: its source is not asked again.
                    decoder.decode(sent, as: .text, options: [], keepsBlank: false).map { value in
                        value.map { FormValue.option($0.description) }
                    }
                } else if let decode = row.type.custom?.decode {
                    decoder.decode(sent?.all ?? [], with: decode, type: row.type.name, kind: row.type.valueKind)
                } else {
                    decoder.decode(sent, as: row.type.valueKind, options: row.options, keepsBlank: row.type.isSecret)
                }
            switch decoded {
            case .success(let value): stored.rows[compiled.index] = .some(value)
            case .failure(let problem):
                throw StoredRecordError(
                    tag: tag, message: english.text(for: problem, name: row.title ?? tag),
                    value: fields[tag].map(\.jsonText).joined(separator: ", "))
            }
        }
        for section in form.sections {
            guard let tag = section.section.multivaluedTag, let item = section.item, fields.contains(tag) else {
                continue
            }
            let sent = fields[tag]
            let items = MultivaluedItems(
                sent: sent, isJSON: true, item: item.row, section: section.section, decoder: decoder)
            if let kind = items.wrongType {
                throw StoredRecordError(
                    tag: tag, message: english.text(for: .wrongType(sent: kind), name: tag),
                    value: sent.map(\.jsonText).joined(separator: ", "))
            }
            if let problem = items.problems.first {
                let list = sent.count == 1 ? sent[0].listItems ?? sent : sent
                throw StoredRecordError(
                    tag: "\(tag)[\(problem.position)]", message: english.text(for: problem.problem, name: tag),
                    value: list.indices.contains(problem.position) ? list[problem.position].jsonText : "")
            }
            if let cap = items.overCap ?? items.overRead {
                throw StoredRecordError(
                    tag: tag, message: "more than \(cap) items", value: sent.map(\.jsonText).joined(separator: ", "))
            }
            stored.items[section.index] = items.values
        }
        return stored
    }
}

extension RawValue {
    /// The value as JSON text, for a log line: an object is only named (`{…}`), as is a file.
    var jsonText: String {
        switch self {
        case .text(let text): JSONValue.string(text).text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .list(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object: "{…}"
        case .file: "(a file)"
        }
    }
}
