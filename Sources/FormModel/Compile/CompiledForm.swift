import FormPredicate

/// A form checked and compiled once at load: predicates parsed, tags resolved to indexes, the
/// dependency order computed. Immutable and `Sendable`; a request never parses text.
///
/// ```swift
/// let form = try FormLoader().loadFile("Forms/event.json").get()
/// let compiled = try FormCompiler().compile(form, file: "Forms/event.json")
/// compiled.order  // every hidden/disabled/value fact after the facts it reads
/// ```
public struct CompiledForm: Sendable {
    /// The descriptor as loaded.
    public let form: Form
    /// Every row in page order; indexes in conditions and `order` point here.
    public let rows: [CompiledRow]
    /// Every section in page order.
    public let sections: [CompiledSection]
    /// The facts in dependency order: evaluating them in turn needs no fact not yet known.
    public let order: [FormFact]
    /// Row index by tag.
    public let rowIndex: [String: Int]

    /// The compiled row tagged `tag`.
    public func row(_ tag: String) -> CompiledRow? { rowIndex[tag].map { rows[$0] } }
}

/// A row with its conditions and validators compiled.
///
/// A class, not a struct: requests walk every row of a form, and handing out a reference costs one
/// retain where copying this many fields would cost one per field.
public final class CompiledRow: Sendable {
    /// Index in `CompiledForm.rows`.
    public let index: Int
    /// Index of its section.
    public let sectionIndex: Int
    /// The descriptor row.
    public let row: Row
    /// Where the row stands in its file: `sections[1].rows[3]`.
    public let path: String
    /// Whether the row is hidden by its own condition (its section's state is a separate fact).
    public let hidden: CompiledCondition
    /// Whether the row is disabled (the whole form's `disabled` included).
    public let disabled: CompiledCondition
    /// Whether an empty value is an error.
    public let required: CompiledCondition
    /// The row's validators, in order.
    public let validators: [CompiledValidator]

    init(
        index: Int, sectionIndex: Int, row: Row, path: String, hidden: CompiledCondition, disabled: CompiledCondition,
        required: CompiledCondition, validators: [CompiledValidator]
    ) {
        self.index = index
        self.sectionIndex = sectionIndex
        self.row = row
        self.path = path
        self.hidden = hidden
        self.disabled = disabled
        self.required = required
        self.validators = validators
    }
}

/// A section with its condition compiled (a class for the same reason as `CompiledRow`).
public final class CompiledSection: Sendable {
    /// Index in `CompiledForm.sections`.
    public let index: Int
    /// The descriptor section.
    public let section: Section
    /// Whether the section is hidden.
    public let hidden: CompiledCondition
    /// Its rows' indexes in `CompiledForm.rows`.
    public let rows: Range<Int>
    /// For a multivalued section: what each of its values is decoded and validated as.
    public let item: CompiledItem?

    init(index: Int, section: Section, hidden: CompiledCondition, rows: Range<Int>, item: CompiledItem?) {
        self.index = index
        self.section = section
        self.hidden = hidden
        self.rows = rows
        self.item = item
    }
}

extension CompiledSection {
    /// What a multivalued section's items are called ("Tag"): the item row's title or tag, else the
    /// section's title or multivalued tag. Pages label item `n` "Tag n+1" and messages name it so.
    public var itemTitle: String {
        item?.row.title ?? item?.row.tag ?? section.title ?? section.multivaluedTag ?? ""
    }

    /// The name of the item at `position` (from 0), as its page labels it: "Tag 2" for position 1.
    public func itemName(at position: Int) -> String { "\(itemTitle) \(position + 1)" }
}

/// The row a multivalued section's values share: its type, limits and validators.
public struct CompiledItem: Sendable {
    /// The row template (or the section's first row).
    public let row: Row
    /// Its validators, run on every value.
    public let validators: [CompiledValidator]
}

/// A constant, or a parsed predicate whose variables are bound to facts of the form.
public enum CompiledCondition: Sendable {
    case constant(Bool)
    /// `bindings[i]` is the fact that answers `predicate.variables[i]`.
    case predicate(Predicate, bindings: [FormFact])

    /// Whether the condition is the constant `true`.
    public var isAlways: Bool {
        if case .constant(true) = self { return true }
        return false
    }

    /// The value of a constant condition; nil for a predicate.
    public var constant: Bool? {
        if case .constant(let flag) = self { return flag }
        return nil
    }

    /// The facts the condition reads.
    public var reads: [FormFact] {
        if case .predicate(_, let bindings) = self { return bindings }
        return []
    }
}

/// A validator ready to run: its predicate parsed, its regular expression compiled, its row resolved.
public struct CompiledValidator: Sendable {
    /// The descriptor's validator.
    public let spec: ValidatorSpec
    /// For `predicate` validators.
    public let condition: CompiledCondition?
    /// For `regex` validators; linear-time, so a pattern cannot hang a request.
    public let regex: SafeRegex?
    /// For `equalsRow` validators: the other row's index.
    public let otherRow: Int?
}
