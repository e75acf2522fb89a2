import FormModel

/// The HTML control a row becomes: the row type's own (`RowType.control`), chosen once per row when a
/// page is built.
typealias Control = RowControl

extension RowControl {
    /// The control of an item of a multivalued section. The server reads items by position in the
    /// values posted under one name, so every item is one control that always posts exactly one value:
    /// radios sharing that name would be one group across all items (one choice in the whole list), an
    /// unchecked box posts nothing (HTML §4.10.21.4, "constructing the entry list"), and a list box
    /// with nothing selected posts nothing. Single selectors become drop-down `<select>`s and booleans
    /// `yesNo`. (A multiple selector, which posts a set, is refused as an item at load.)
    init(item type: RowType) {
        switch type.control {
        case .radios, .segmented, .select: self = .select(inline: false)
        case .checkbox: self = .yesNo
        case let control: self = control
        }
    }

    /// Whether the row is a group of inputs labelled by a `<legend>` rather than a `<label>`.
    var isGroup: Bool {
        switch self {
        case .radios, .segmented, .checkboxes: true
        default: false
        }
    }
}
