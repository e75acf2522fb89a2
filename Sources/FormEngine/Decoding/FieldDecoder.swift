import FormModel

/// Turns the raw values sent for one row into the row's typed value, or a problem.
///
/// The rules are docs/submissions.md's rule 8: numbers in a fixed locale (`.` decimals, no
/// grouping), dates as ISO-8601 / HTML input values in the form's time zone, options by key, and an
/// unchecked checkbox is false. Empty text is no value: `""` and whitespace-only text (rule 6; a
/// password's spaces are kept), so the payload and conditions see null, as for a value never sent.
struct FieldDecoder {
    /// The form's time zone, which date-times are read in.
    let zone: ZoneConverter

    /// The value of a row holding `kind`, with `options` if a selector, from everything sent under its name.
    /// `keepsBlank` is true for a password, whose spaces are a value (`RowPlan.keepsBlank`).
    // The row's kind and options are passed rather than the `Row`, which the caller would copy field by field.
    func decode(
        _ sent: SubmittedFields.Sent?, as kind: ValueKind, options: [Option], keepsBlank: Bool
    ) -> Result<FormValue?, Problem> {
        if kind == .options { return self.options(sent?.all ?? [], from: options) }
        guard (sent?.count ?? 0) <= 1 else { return .failure(.sentMoreThanOnce) }
        guard let raw = sent?.first else {
            // An unchecked checkbox sends nothing: that is its "false" (HTML §4.10.18.3 constructing the entry list).
            return .success(kind == .bool ? .bool(false) : nil)
        }
        return decode(raw, as: kind, options: options, keepsBlank: keepsBlank)
    }

    /// One raw value as a value of `kind` (also used for each item of a multivalued section).
    func decode(_ raw: RawValue, as kind: ValueKind, options: [Option], keepsBlank: Bool) -> Result<FormValue?, Problem>
    {
        switch raw {
        case .null: return .success(kind == .bool ? .bool(false) : nil)
        case .list, .object: return .failure(.wrongType(sent: raw.kind))
        case .file(let file):
            guard kind == .file else { return .failure(.wrongType(sent: raw.kind)) }
            // A file input left empty still sends a part with no name and no bytes.
            return .success(file.filename.isEmpty && file.size == 0 ? nil : .file(file))
        case .bool(let flag):
            guard kind == .bool else { return .failure(.wrongType(sent: raw.kind)) }
            return .success(.bool(flag))
        case .number(let text):
            switch kind {
            case .integer, .decimal, .duration, .bool, .option: return decode(text: text, as: kind, options: options)
            default: return .failure(.wrongType(sent: raw.kind))
            }
        case .text(let text):
            if kind == .file { return text.isEmpty ? .success(nil) : .failure(.notAFile) }
            if kind == .text { return self.text(text, keepsBlank: keepsBlank) }
            return decode(text: text, as: kind, options: options)
        }
    }

    private func decode(text: String, as kind: ValueKind, options: [Option]) -> Result<FormValue?, Problem> {
        let trimmed = text.trimmingASCIIWhitespace
        guard !trimmed.isEmpty else { return .success(kind == .bool ? .bool(false) : nil) }
        switch kind {
        case .integer: return NumberText.integer(trimmed).map { .integer($0) }
        case .decimal: return NumberText.decimal(trimmed).map { .decimal($0) }
        case .bool:
            switch trimmed.lowercased() {
            case "true", "1", "on", "yes": return .success(.bool(true))
            case "false", "0", "off", "no": return .success(.bool(false))
            default: return .failure(.notABoolean)
            }
        case .option:
            // The descriptor's own spelling is kept: Swift's `==` also matches a canonically equivalent
            // (NFD) spelling, which predicates, comparing bytes, would not.
            return options.first { $0.value == trimmed }.map { .success(.option($0.value)) }
                ?? .failure(.unknownOption)
        case .date: return LocalDate(iso: trimmed).map { .success(.date($0)) } ?? .failure(.notADate)
        case .time: return LocalTime(iso: trimmed).map { .success(.time($0)) } ?? .failure(.notATime)
        case .dateTime:
            switch zone.read(trimmed) {
            case .instant(let dateTime): return .success(.dateTime(dateTime))
            case .skipped: return .failure(.skippedDateTime(zone: zone.identifier))
            case .malformed: return .failure(.notADateTime)
            }
        case .duration: return DurationText.seconds(trimmed).map { .success(.duration($0)) } ?? .failure(.notADuration)
        case .text, .options, .file, .none: return .success(nil)
        }
    }

    /// Text as typed, with the browser's CRLF line breaks made LF (HTML §4.10.11 normalises textarea
    /// values the same way, so lengths agree) and control characters refused; nil when empty.
    private func text(_ text: String, keepsBlank: Bool) -> Result<FormValue?, Problem> {
        // Rule 6's "empty", the one `required` applies (`FormValue.isEmpty(for:)`): blank text is no
        // value, so it cannot reach the payload, nor pass `maxLength` only to be stored as spaces.
        // `looksBlank` stops at the first printable ASCII character, which nearly every value starts with.
        guard keepsBlank ? !text.isEmpty : !text.looksBlank else { return .success(nil) }
        // Most text has no control character at all: one scan says so, and the text is kept as sent.
        guard Self.hasControlCharacters(text) else { return .success(.text(text)) }
        var normalised = text
        if text.utf8.contains(0x0D) {
            normalised = text.replacingAll("\r\n", with: "\n").replacingAll("\r", with: "\n")
        }
        let refused = normalised.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
        }
        return refused ? .failure(.controlCharacters) : .success(.text(normalised))
    }

    /// Whether `text` may have a control character (CR, LF and tab included): C0 and DEL are ASCII, and
    /// C1 (U+0080–U+009F) is 0xC2 then a second byte in UTF-8, so the contiguous bytes are scanned, not
    /// scalars. 0xC2 also starts U+00A0–U+00BF (`£`, `°`): those take the slower scan of scalars.
    private static func hasControlCharacters(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
        }
        return found ?? text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// A multiple selection: every value must be an option; each is kept once, in the options' order.
    private func options(_ sent: [RawValue], from options: [Option]) -> Result<FormValue?, Problem> {
        var chosen = Set<String>()
        let items: [RawValue] = sent.count == 1 ? (sent[0].listItems ?? sent) : sent
        for item in items {
            switch item {
            case .text(let value), .number(let value):
                guard !value.isEmpty else { continue }
                guard let option = options.first(where: { $0.value == value }) else {
                    return .failure(.unknownOption)
                }
                chosen.insert(option.value)
            case .null: continue
            default: return .failure(.wrongType(sent: item.kind))
            }
        }
        // Nothing chosen is an empty selection, not no value: `$hobbies.@count == 0` holds, and the
        // payloads say `[]`, whether the list was posted empty or not posted at all.
        return .success(.options(options.map(\.value).filter(chosen.contains)))
    }
}

extension RawValue {
    /// The items of a list; nil for any other value.
    var listItems: [RawValue]? {
        if case .list(let items) = self { return items }
        return nil
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace (HTML's "strip leading and trailing ASCII whitespace").
    var trimmingASCIIWhitespace: String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return self }
        return String(self[first...last])
    }
}

extension FieldDecoder {
    /// The value of a row of a custom type, from everything sent under its name: its texts (a JSON list's
    /// items one by one) go to the type's own decoder. Nothing but blank text is no value, as for every
    /// type (rule 6), and control characters are refused before the decoder sees them; a refusal it
    /// throws is the row's problem, worded by the type.
    func decode(
        _ sent: [RawValue], with decode: @Sendable ([String]) throws(CustomRowError) -> FormValue?, type: String,
        kind: ValueKind
    ) -> Result<FormValue?, Problem> {
        var texts: [String] = []
        for raw in sent.count == 1 ? (sent[0].listItems ?? sent) : sent {
            switch raw {
            case .text(let text), .number(let text):
                // The quick scan first: it also stops at some printable characters (`£`), which the second lets by.
                if Self.hasControlCharacters(text),
                    text.unicodeScalars.contains(where: {
                        $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
                    })
                {
                    return .failure(.controlCharacters)
                }
                texts.append(text)
            case .bool(let flag): texts.append(flag ? "true" : "false")
            case .null: continue
            default: return .failure(.wrongType(sent: raw.kind))
            }
        }
        guard !texts.allSatisfy(\.looksBlank) else { return .success(nil) }
        do {
            let value = try decode(texts)
            // A decoder that makes another kind of value than its type holds is the application's mistake:
            // the row cannot be judged, and the reader is told so rather than the payload carrying it.
            if let value, !value.fits(kind) {
                return .failure(.custom(name: type, message: "This value cannot be read just now"))
            }
            return .success(value)
        } catch {
            return .failure(.custom(name: type, message: error.message))
        }
    }
}
