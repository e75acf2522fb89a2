import Foundation
import Yams

/// A descriptor file's content as a tree of scalars, sequences and mappings, each with its position.
///
/// JSON is read by the YAML parser (JSON is YAML), so both formats give the same tree. Scalars keep
/// their text: the reader decides what a scalar means from where it stands, so a YAML `no` stays the
/// string "no" where a string is expected instead of becoming false (YAML 1.1's "Norway problem").
indirect enum DescriptorNode {
    case scalar(String, isPlain: Bool, Position)
    case sequence([DescriptorNode], Position)
    case mapping([(key: String, value: DescriptorNode, keyPosition: Position)], Position)

    /// A line and column, from 1 (as Yams reports them).
    struct Position {
        let line: Int
        let column: Int
    }

    var position: Position {
        switch self {
        case .scalar(_, _, let position), .sequence(_, let position), .mapping(_, let position): position
        }
    }

    /// Whether this is YAML's or JSON's null: a plain `~`, `null` (`Null`, `NULL`) or nothing at all
    /// (`title:`), as YAML 1.2's core schema reads them. A quoted `"~"` is text.
    var isNull: Bool {
        guard case .scalar(let text, true, _) = self else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// What a person would call this kind of value, for messages.
    var kindName: String {
        switch self {
        case .scalar: "a value"
        case .sequence: "a list"
        case .mapping: "an object"
        }
    }

    /// Limits that keep a hostile or broken file from exhausting the loader.
    struct Limits {
        /// Values in the expanded tree; YAML aliases count every time they are used (anchor bombs).
        var maxNodes = 500_000
        /// Nesting depth.
        var maxDepth = 64
    }

    /// Why a file could not become a tree.
    struct Failure: Error {
        let message: String
        let position: Position?
    }

    /// Parses `text` (JSON or YAML) into a tree within `limits`.
    static func parse(_ text: String, limits: Limits = Limits()) throws(Failure) -> DescriptorNode {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Failure(message: Self.describe(error), position: nil)
        } catch {
            throw Failure(message: "cannot be parsed: \(error)", position: nil)
        }
        guard let root else { throw Failure(message: "the file is empty", position: nil) }
        var budget = limits.maxNodes
        return try convert(root, depth: 0, limits: limits, budget: &budget)
    }

    private static func convert(
        _ node: Node, depth: Int, limits: Limits, budget: inout Int
    ) throws(Failure) -> DescriptorNode {
        let position = Position(line: (node.mark?.line ?? 0), column: (node.mark?.column ?? 0))
        budget -= 1
        guard budget >= 0 else {
            throw Failure(
                message:
                    "the file expands to more than \(limits.maxNodes) values (are YAML aliases repeating a large anchor?)",
                position: position)
        }
        guard depth <= limits.maxDepth else {
            throw Failure(message: "values are nested more than \(limits.maxDepth) deep", position: position)
        }
        switch node {
        case .scalar(let scalar):
            return .scalar(scalar.string, isPlain: scalar.style == .plain, position)
        case .sequence(let sequence):
            var items: [DescriptorNode] = []
            for item in sequence { items.append(try convert(item, depth: depth + 1, limits: limits, budget: &budget)) }
            return .sequence(items, position)
        case .mapping(let mapping):
            var pairs: [(key: String, value: DescriptorNode, keyPosition: Position)] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw Failure(message: "a key must be a plain name", position: position)
                }
                if pairs.contains(where: { $0.key == keyScalar.string }) {
                    let mark = key.mark.map { Position(line: $0.line, column: $0.column) } ?? position
                    throw Failure(message: "the key '\(keyScalar.string)' appears twice in one object", position: mark)
                }
                let keyPosition = key.mark.map { Position(line: $0.line, column: $0.column) } ?? position
                pairs.append(
                    (
                        keyScalar.string, try convert(value, depth: depth + 1, limits: limits, budget: &budget),
                        keyPosition
                    ))
            }
            return .mapping(pairs, position)
        case .alias(let alias):
            throw Failure(message: "unresolved alias '\(alias.anchor)'", position: position)
        }
    }

    private static func describe(_ error: YamlError) -> String {
        "is not valid JSON or YAML: \(error)".replacingOccurrences(of: "\n", with: " ")
    }
}
