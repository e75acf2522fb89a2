/// Checks of a form's `layout`: each line names rows that can share one on the page.
extension ModelChecks {
    /// The problems of `form.layout.lines`: a tag that names no row (with the closest one), a row of a
    /// multivalued section (its items are laid out as a list), a line of fewer than two rows, rows of
    /// different sections or not next to one another (a line cannot reorder the page), and a row named
    /// on two lines.
    static func layoutProblems(of form: Form) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        // Each tagged row of an ordinary section: its section and its place in it.
        var places: [String: (section: Int, row: Int)] = [:]
        var listed: Set<String> = []
        for (s, section) in form.sections.enumerated() {
            for (r, row) in section.rows.enumerated() {
                guard let tag = row.tag else { continue }
                if section.isMultivalued { listed.insert(tag) } else { places[tag] = (s, r) }
            }
            if let tag = section.multivaluedTag { listed.insert(tag) }
        }
        var placed: Set<String> = []
        for (l, line) in form.layout.lines.enumerated() {
            let path = "layout.lines[\(l)]"
            if line.count < 2 {
                problems.append(
                    (path, "a line holds two rows or more, such as [starts, ends]; a row alone needs no line"))
            }
            var found: [(section: Int, row: Int)] = []
            for (t, tag) in line.enumerated() {
                let tagPath = "\(path)[\(t)]"
                if listed.contains(tag) {
                    problems.append(
                        (
                            tagPath,
                            "'\(tag)' is in a multivalued section, whose items are laid out as a list: no line can hold it"
                        ))
                    continue
                }
                guard let place = places[tag] else {
                    let close = closestName(to: tag, among: places.keys).map { " (did you mean '\($0)'?)" } ?? ""
                    problems.append((tagPath, "'\(tag)' names no row of the form\(close)"))
                    continue
                }
                if !placed.insert(tag).inserted {
                    problems.append((tagPath, "'\(tag)' is already on another line: a row is on one line at most"))
                }
                found.append(place)
            }
            guard found.count == line.count, found.count >= 2 else { continue }
            let sameSection = Set(found.map(\.section)).count == 1
            let adjacent = zip(found, found.dropFirst()).allSatisfy { $1.row == $0.row + 1 }
            if !sameSection || !adjacent {
                problems.append(
                    (
                        path,
                        "the rows of a line must follow one another in one section, in that order: "
                            + "\(line.joined(separator: ", ")) do not; move the rows or the line"
                    ))
            }
        }
        return problems
    }
}
