import Foundation

/// Reads one JSON/YAML object of a descriptor: typed accessors that report a problem (with the path
/// and position) instead of failing, and a `finish` that reports every key nobody read as unknown.
struct ObjectReader {
    let path: String
    let node: DescriptorNode
    let log: ProblemLog
    private let pairs: [(key: String, value: DescriptorNode, keyPosition: DescriptorNode.Position)]
    private var used: Set<String> = []

    /// A reader for `node`, or nil (with a problem logged) when it is not an object.
    init?(_ node: DescriptorNode, path: String, log: ProblemLog) {
        guard case .mapping(let pairs, _) = node else {
            log.add(path, "expected an object, found \(node.kindName)", at: node)
            return nil
        }
        self.path = path
        self.node = node
        self.log = log
        self.pairs = pairs
    }

    /// The path of a key inside this object: `sections[1].rows[3]` + `hidden`.
    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The raw node for `key`, marking the key as known; nil when it is absent or null.
    ///
    /// A null (`title: ~`, `"title": null`) is read as no value, as JSON APIs and YAML mean it: a
    /// descriptor written by a program that serialises an unset field as null gets the default, not
    /// the text "~" or "null" on the page. (YAML's `no` stays text where text is expected: that is a
    /// word of YAML 1.1, while null is "no value" in both formats.)
    mutating func node(_ key: String) -> DescriptorNode? {
        used.insert(key)
        guard let value = pairs.first(where: { $0.key == key })?.value, !value.isNull else { return nil }
        return value
    }

    mutating func string(_ key: String) -> String? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let text, _, _) = value else {
            log.add(path(key), "expected text, found \(value.kindName)", at: value)
            return nil
        }
        return text
    }

    /// One of a fixed set of names (`clear` / `keep`), as the enum `T`; `expected` names them in the problem.
    mutating func choice<T: RawRepresentable<String>>(_ key: String, as type: T.Type, expected: String) -> T? {
        guard let text = string(key) else { return nil }
        if let value = T(rawValue: text) { return value }
        log.add(path(key), "expected \(expected), found '\(text)'", at: node(key))
        return nil
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = node(key) else { return nil }
        if let flag = Self.bool(value) { return flag }
        log.add(path(key), "expected true or false", at: value)
        return nil
    }

    mutating func integer(_ key: String, minimum: Int = Int.min) -> Int? {
        guard let value = node(key) else { return nil }
        if case .scalar(let text, false, _) = value, Int(text) != nil {
            // A quoted number is text: read as a number it would hide a descriptor's type mistake.
            log.add(path(key), "\(key) must be a number, not the text \"\(text)\": write it without quotes", at: value)
            return nil
        }
        guard case .scalar(let text, _, _) = value, let number = Int(text), number >= minimum else {
            log.add(
                path(key),
                minimum == Int.min ? "expected a whole number" : "expected a whole number of at least \(minimum)",
                at: value)
            return nil
        }
        return number
    }

    /// A constant or a predicate: `true`, `false`, or a string such as `"$alert == 'never'"`.
    mutating func condition(_ key: String) -> Condition? {
        guard let value = node(key) else { return nil }
        if let flag = Self.bool(value) { return .constant(flag) }
        guard case .scalar(let text, _, _) = value else {
            log.add(path(key), "expected true, false or a predicate string, found \(value.kindName)", at: value)
            return nil
        }
        return .predicate(text)
    }

    /// A list of strings; a single string counts as a list of one.
    mutating func strings(_ key: String) -> [String]? {
        guard let value = node(key) else { return nil }
        switch value {
        case .scalar(let text, _, _): return [text]
        case .sequence(let items, _):
            return items.enumerated().compactMap { index, item in
                guard case .scalar(let text, _, _) = item else {
                    log.add("\(path(key))[\(index)]", "expected text, found \(item.kindName)", at: item)
                    return nil
                }
                return text
            }
        case .mapping:
            log.add(path(key), "expected a list of texts, found an object", at: value)
            return nil
        }
    }

    /// The items of a list, with their paths.
    mutating func list(_ key: String) -> [(path: String, node: DescriptorNode)]? {
        guard let value = node(key) else { return nil }
        guard case .sequence(let items, _) = value else {
            log.add(path(key), "expected a list, found \(value.kindName)", at: value)
            return nil
        }
        return items.enumerated().map { ("\(path(key))[\($0.offset)]", $0.element) }
    }

    /// Reports every key that no accessor asked for: a misspelt `requierd` is an error, not silence.
    func finish() {
        for (key, _, position) in pairs where !used.contains(key) {
            var message = "unknown key '\(key)'"
            if let (source, formwright) = Self.foreignKeys[key], used.contains(formwright) {
                message += " (did you mean '\(formwright)'? '\(key)' is \(source)'s name for it)"
            } else if let suggestion = closestName(to: key, among: used) {
                message += " (did you mean '\(suggestion)'?)"
            }
            log.add(path(key), message, line: position.line, column: position.column)
        }
    }

    /// XLForm's and Eureka's names for Formwright's keys, so a descriptor ported from an app is told the
    /// key to write; each is suggested only where its Formwright key belongs (`rows` in a section).
    static let foreignKeys: [String: (source: String, key: String)] = [
        "rowType": ("XLForm", "type"),
        "selectorOptions": ("XLForm", "options"),
        "selectorTitle": ("XLForm and Eureka", "title"),
        "formSections": ("XLForm", "sections"),
        "formRows": ("XLForm", "rows"),
        "footerTitle": ("XLForm", "footer"),
        "sectionOptions": ("XLForm", "multivaluedOptions"),
        "sectionInsertMode": ("XLForm", "insertMode"),
        "multivaluedRowTemplate": ("XLForm", "rowTemplate"),
    ]

    /// Marks `keys` as known without reading them: for an object read no further, whose other keys
    /// must not be reported as unknown.
    mutating func skip(_ keys: [String]) { used.formUnion(keys) }

    /// Whether the object has `key` (marking it as known).
    mutating func has(_ key: String) -> Bool { node(key) != nil }

    static func bool(_ node: DescriptorNode) -> Bool? {
        guard case .scalar(let text, let isPlain, _) = node, isPlain else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }
}

/// The name of `candidates` closest to `name` within `distance` edits (ties broken alphabetically), for
/// "did you mean" hints: `requierd` gives `required`; nil when none is that close.
public func closestName(to name: String, among candidates: some Sequence<String>, within distance: Int = 2) -> String? {
    candidates.map { (name: $0, distance: editDistance($0, name)) }
        .filter { $0.distance <= distance }
        .min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
}

/// Levenshtein distance, ASCII case ignored, for "did you mean" hints on short keys and codes.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased())
    let b = Array(b.lowercased())
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
