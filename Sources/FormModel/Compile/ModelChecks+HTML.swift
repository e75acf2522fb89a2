import Foundation

/// Checks of settings that would render inaccessible or meaningless HTML: a nameless submit button, an
/// option that cannot be told from no choice, an `accept` browsers ignore, a placeholder no control
/// shows, a `lang` that names no language, a button that does nothing.
extension ModelChecks {
    /// The problems of the form's own settings.
    static func htmlProblems(of form: Form) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        if let title = form.submitTitle, title.allSatisfy(\.isWhitespace) {
            // A button's accessible name is its text (HTML-AAM, "button element"): an empty one is
            // announced as "button", and sighted readers see an empty box.
            problems.append(
                (
                    "submitTitle",
                    "the submit button's text is empty, so the button has no name to see or hear: "
                        + "write one (\"Send\") or leave submitTitle out for the built-in one"
                ))
        }
        if !LanguageTag.isWellFormed(form.locale) {
            let dashed = form.locale.replacingOccurrences(of: "_", with: "-")
            let example = LanguageTag.isWellFormed(dashed) && dashed != form.locale ? dashed : "fr-FR"
            problems.append(
                (
                    "locale",
                    "'\(form.locale)' is not a well-formed language tag (BCP 47, such as 'fr' or '\(example)'): "
                        + "it becomes the page's lang, which screen readers use to choose a voice"
                ))
        }
        return problems
    }

    /// The problems of `row`'s options, `accept`, `placeholder` and action.
    static func htmlProblems(of row: Row, at path: String) -> [(path: String, message: String)] {
        var problems: [(path: String, message: String)] = []
        let type = row.type.name
        for (index, option) in row.options.enumerated() where option.value.isEmpty {
            // A selector's empty value means "no choice" (the select's placeholder option, an unticked set).
            problems.append(
                (
                    "\(path).options[\(index)]",
                    "an option's value cannot be empty: it could not be told from no choice; give it a value "
                        + "(its title is what readers see)"
                ))
        }
        if !row.accept.isEmpty, row.type.valueKind != .file {
            problems.append(
                (
                    "\(path).accept",
                    "accept applies to upload rows; \(ConstantComparisonChecks.article(type)) row has no file"
                ))
        }
        for (index, entry) in row.accept.enumerated() {
            if let problem = acceptProblem(entry) {
                problems.append((row.accept.count == 1 ? "\(path).accept" : "\(path).accept[\(index)]", problem))
            }
        }
        if row.placeholder != nil, !row.type.showsPlaceholder {
            let instead =
                row.type.control.isSelect
                ? "use noValueDisplayText for the text of its empty choice, or help for a hint"
                : "use help for a hint"
            problems.append(
                (
                    "\(path).placeholder",
                    "\(ConstantComparisonChecks.article(type)) row's control shows no placeholder (HTML gives one only to "
                        + "text, number and text-area fields), so no one would see it: \(instead)"
                ))
        }
        if row.type.control.isAction, row.url == nil {
            problems.append(
                (
                    "\(path).url",
                    "a button row needs a url: without one it renders a button that does nothing when pressed; "
                        + "give it a url (/path or https://…), or use a label row for text"
                ))
        }
        return problems
    }

    /// Why `entry` is no token of HTML's `accept` attribute (§4.10.5.1.18 "File Upload state"), or nil:
    /// `audio/*`, `video/*`, `image/*`, a MIME type without parameters (`application/pdf`), or an
    /// extension starting with `.` (`.pdf`). Browsers ignore any other token.
    static func acceptProblem(_ entry: String) -> String? {
        let token = entry.trimmingCharacters(in: .whitespaces)
        let help = "write a media type (image/png), image/*, audio/* or video/*, or an extension (.pdf)"
        if token.contains(",") {
            return "'\(entry)' holds a comma: give each type as its own entry of the list"
        }
        if token.hasPrefix(".") {
            return token.count > 1 && !token.contains(where: \.isWhitespace)
                ? nil : "'\(entry)' is not an extension: \(help)"
        }
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "'\(entry)' is neither a media type nor an extension: \(help)" }
        if parts[1] == "*" {
            return ["audio", "video", "image"].contains(parts[0].lowercased())
                ? nil
                : "'\(entry)': HTML's only wildcards are image/*, audio/* and video/*; list the types instead (\(parts[0])/…)"
        }
        // type "/" subtype, each a token of RFC 9110 §5.6.2 (MIME Sniffing's "valid MIME type string").
        let tchar = Set("!#$%&'*+-.^_`|~")
        let isToken = { (part: Substring) in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || tchar.contains($0)) }
        }
        guard isToken(parts[0]), isToken(parts[1]) else {
            return "'\(entry)' is neither a media type nor an extension: \(help)"
        }
        return nil
    }
}
