import FormModel

extension Verdict {
    /// The bytes of `payloadJSON`, written in one walk of the form without building the JSON tree:
    /// the answer to every valid API submission, so it is on the hot path.
    public var payloadJSONBytes: [UInt8] {
        // Both payloads share keys and most values: each value is converted once and its bytes copied.
        // `httpParameters` is written in place; `formValues` beside it, then appended.
        var output: [UInt8] = []
        var detailed: [UInt8] = []
        output.reserveCapacity(1024)
        detailed.reserveCapacity(512)
        output.append(contentsOf: #"{"httpParameters":{"#.utf8)
        writePayloads(plain: &output, detailed: &detailed)
        output.append(contentsOf: #"},"formValues":{"#.utf8)
        output.append(contentsOf: detailed)
        output.append(contentsOf: "}}".utf8)
        return output
    }

    /// Appends the members of `httpParameters` to `plain` and of `formValues` to `detailed`, in
    /// `payloads()`'s order, without braces.
    private func writePayloads(plain: inout [UInt8], detailed: inout [UInt8]) {
        writePayloads(plan: plan, plain: &plain, detailed: &detailed)
    }

    private func writePayloads(plan: FormPlan, plain: inout [UInt8], detailed: inout [UInt8]) {
        // `formValues` leaves out the rows without a value, so each payload has its own first member.
        var (plainStarted, detailedStarted) = (false, false)
        func separate(detailedToo: Bool = true) {
            if plainStarted { plain.append(UInt8(ascii: ",")) }
            plainStarted = true
            guard detailedToo else { return }
            if detailedStarted { detailed.append(UInt8(ascii: ",")) }
            detailedStarted = true
        }
        for sectionIndex in plan.form.sections.indices where !sectionHidden[sectionIndex] {
            let section = plan.form.sections[sectionIndex]
            if let tag = section.section.multivaluedTag, let item = section.item {
                separate()
                let start = plain.count
                JSONValue.writeString(tag, to: &plain)
                plain.append(UInt8(ascii: ":"))
                detailed.append(contentsOf: plain[start...])
                plain.append(UInt8(ascii: "["))
                detailed.append(UInt8(ascii: "["))
                let choices = item.row.options
                for (position, value) in (items[section.index] ?? []).enumerated() {
                    if position > 0 {
                        plain.append(UInt8(ascii: ","))
                        detailed.append(UInt8(ascii: ","))
                    }
                    write(value, choices: choices, plan: nil, plain: &plain, detailed: &detailed)
                }
                plain.append(UInt8(ascii: "]"))
                detailed.append(UInt8(ascii: "]"))
                continue
            }
            for index in section.rows where !rowHidden[index] {
                // Only rows with a key (those that take input outside multivalued sections, which are
                // written above) are in the payloads; the key was escaped once, in the plan.
                plan.withRow(index) { rowPlan, compiled in
                    guard rowPlan.field != nil else { return }
                    guard let value = values[index] else {
                        separate(detailedToo: false)
                        rowPlan.keyBytes.withUnsafeBufferPointer { plain.append(contentsOf: $0) }
                        plain.append(contentsOf: "null".utf8)
                        return
                    }
                    separate()
                    rowPlan.keyBytes.withUnsafeBufferPointer { key in
                        plain.append(contentsOf: key)
                        detailed.append(contentsOf: key)
                    }
                    if let option = confirmedOptions[index] {
                        write(value, choices: [option], plan: nil, plain: &plain, detailed: &detailed)
                    } else {
                        write(value, choices: compiled.row.options, plan: rowPlan, plain: &plain, detailed: &detailed)
                    }
                }
            }
        }
    }

    /// One value as `httpParameters` and as `formValues` show it (the bytes of `json(_:row:options:)`).
    /// `choices` are the row's options; `plan` its constant facts, when it is a row of the form.
    private func write(
        _ value: FormValue, choices: [Option], plan: RowPlan?, plain: inout [UInt8], detailed: inout [UInt8]
    ) {
        /// A value both payloads show alike: written once, its bytes copied.
        func shared(_ writeValue: (inout [UInt8]) -> Void) {
            let start = plain.count
            writeValue(&plain)
            // Copied through a buffer pointer: a slice of `plain` would retain its storage.
            plain.withUnsafeBufferPointer { detailed.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start...])) }
        }
        switch value {
        case .option(let key):
            JSONValue.writeString(key, to: &plain)
            writeOption(key, choices: choices, plan: plan, to: &detailed)
        case .options(let keys):
            plain.append(UInt8(ascii: "["))
            detailed.append(UInt8(ascii: "["))
            for (position, key) in keys.enumerated() {
                if position > 0 {
                    plain.append(UInt8(ascii: ","))
                    detailed.append(UInt8(ascii: ","))
                }
                JSONValue.writeString(key, to: &plain)
                writeOption(key, choices: choices, plan: plan, to: &detailed)
            }
            plain.append(UInt8(ascii: "]"))
            detailed.append(UInt8(ascii: "]"))
        case .file(let file):
            JSONValue.writeString(file.filename, to: &plain)
            Self.fileObject(file).write(to: &detailed)
        case .text(let text): shared { JSONValue.writeString(text, to: &$0) }
        case .integer(let number), .duration(let number): shared { $0.append(contentsOf: String(number).utf8) }
        case .decimal(let number): shared { $0.append(contentsOf: "\(number)".utf8) }
        case .bool(let flag): shared { $0.append(contentsOf: (flag ? "true" : "false").utf8) }
        case .date(let date): shared { JSONValue.writeString(ISOWriter.string { $0.append(date) }, to: &$0) }
        case .time(let time): shared { JSONValue.writeString(time.isoDescription, to: &$0) }
        case .dateTime(let dateTime):
            shared { JSONValue.writeString(ISOWriter.string { $0.append(dateTime) }, to: &$0) }
        }
    }

    /// An option's `{"value", "title"}`: the bytes written at start when the key is the option's own
    /// spelling, byte for byte (as `option(_:row:objects:)` decides), else built now.
    private func writeOption(_ key: String, choices: [Option], plan: RowPlan?, to output: inout [UInt8]) {
        if let plan, let position = choices.firstIndex(where: { $0.value == key }),
            choices[position].value.utf8.elementsEqual(key.utf8)
        {
            return plan.optionBytes[position].withUnsafeBufferPointer { output.append(contentsOf: $0) }
        }
        option(key, choices: choices, objects: plan?.optionObjects).write(to: &output)
    }
}
