import FormModel
import Foundation

extension Verdict {
    /// XLForm's `httpParameters`: one key per tagged, visible row (null when empty), a multivalued
    /// section's values as an array under its `multivaluedTag`, an option as its value, dates and
    /// times as ISO-8601. Hidden rows and sections are left out (docs/submissions.md, rule 4).
    public var httpParameters: JSONValue { payloads().httpParameters }

    /// XLForm's `formValues`: the same keys but those of rows without a value (XLForm leaves them out of
    /// its dictionary, where `httpParameters` has `null`), with options as `{"value", "title"}` and
    /// files as `{"filename", "contentType", "size"}`.
    public var formValues: JSONValue { payloads().formValues }

    /// Both payloads from one walk of the form: they share their keys and every value but options and
    /// files, so each value is converted once. A caller that wants both asks for them here.
    public func payloads() -> (httpParameters: JSONValue, formValues: JSONValue) {
        var plain: [(String, JSONValue)] = []
        var detailed: [(String, JSONValue)] = []
        // Reserved once: appending pair by pair would regrow each array several times.
        plain.reserveCapacity(plan.payloadKeys)
        detailed.reserveCapacity(plan.payloadKeys)
        for section in form.sections where !sectionHidden[section.index] {
            if let tag = section.section.multivaluedTag, let item = section.item {
                let pairs = (items[section.index] ?? []).map { json($0, row: item.row, options: nil) }
                plain.append((tag, .array(pairs.map(\.plain))))
                detailed.append((tag, .array(pairs.map(\.detailed))))
                continue
            }
            for index in section.rows where !rowHidden[index] {
                let compiled = form.rows[index]  // a class: the row is read in place, not copied
                guard let tag = compiled.row.tag, compiled.row.type.takesInput else { continue }
                guard let value = values[index] else {
                    plain.append((tag, .null))  // XLForm's formValues has no key for a row without a value
                    continue
                }
                let pair =
                    if let option = confirmedOptions[index], case .option(let key) = value {
                        (plain: JSONValue.string(key), detailed: Self.optionObject(value: key, title: option.title))
                    } else {
                        json(value, row: compiled.row, options: plan.rows[index].optionObjects)
                    }
                plain.append((tag, pair.plain))
                detailed.append((tag, pair.detailed))
            }
        }
        return (.object(plain), .object(detailed))
    }

    /// A value as `httpParameters` and as `formValues` show it. `options` are the row's option objects
    /// built in advance (`RowPlan.optionObjects`), when there are.
    func json(_ value: FormValue, row: Row, options: [JSONValue]?) -> (plain: JSONValue, detailed: JSONValue) {
        let shared: JSONValue
        switch value {
        case .option(let key): return (.string(key), option(key, row: row, objects: options))
        case .options(let keys):
            return (.array(keys.map(JSONValue.string)), .array(keys.map { option($0, row: row, objects: options) }))
        case .file(let file):
            return (.string(file.filename), Self.fileObject(file))
        case .text(let text): shared = .string(text)
        case .integer(let number): shared = .integer(number)
        case .decimal(let number): shared = .number("\(number)")
        case .bool(let flag): shared = .bool(flag)
        case .date(let date): shared = .string(ISOWriter.string { $0.append(date) })
        case .time(let time): shared = .string(time.isoDescription)
        case .dateTime(let dateTime): shared = .string(ISOWriter.string { $0.append(dateTime) })
        case .duration(let seconds): shared = .integer(seconds)
        }
        return (shared, shared)
    }

    /// `{"value", "title"}` for the option `key` of `row`; the title is the key itself when no option has it.
    func option(_ key: String, row: Row, objects: [JSONValue]?) -> JSONValue {
        option(key, choices: row.options, objects: objects)
    }

    /// `option(_:row:objects:)` given the row's options alone.
    func option(_ key: String, choices: [Option], objects: [JSONValue]?) -> JSONValue {
        guard let position = choices.firstIndex(where: { $0.value == key }) else {
            return Self.optionObject(value: key, title: key)
        }
        let option = choices[position]
        // The object built in advance holds the option's own spelling: use it when the key is spelled
        // the same, byte for byte (`==` also matches a canonically equivalent spelling).
        if let objects, option.value.utf8.elementsEqual(key.utf8) { return objects[position] }
        return Self.optionObject(value: key, title: option.title)
    }

    /// A file as `formValues` shows it.
    static func fileObject(_ file: UploadedFile) -> JSONValue {
        .object([
            ("filename", .string(file.filename)), ("contentType", .string(file.contentType)),
            ("size", .integer(file.size)),
        ])
    }

    /// An option as `formValues` shows it.
    static func optionObject(value: String, title: String) -> JSONValue {
        .object([("value", .string(value)), ("title", .string(title))])
    }
}

extension LocalTime {
    /// `HH:MM:SS`, seconds always written.
    var isoDescription: String { ISOWriter.string { $0.append(self, secondsAlways: true) } }
}
