/// One control as one request shows it: a row's plan with the values, state and errors of a
/// `PageState`. A multivalued section's item is a field of the section's item plan.
struct FieldView {
    let plan: RowPlan
    /// The control's id (a row's base id, or an item's `base-n`).
    let id: String
    /// The posted name.
    let name: String?
    /// Appended to the label: an item's position (" 2").
    let labelSuffix: String?
    let values: [String]
    let disabled: Bool
    let required: Bool
    let errors: [PageError]
    /// Whether the control takes focus when the page loads (`PageState.focus`).
    var autofocus = false
    /// An item's name ("Tag 2"), which its errors name: they mark it for the browser script.
    var itemName: String? = nil
    /// For an upload row: the file the server holds from a refused post.
    var held: PageState.HeldFile? = nil
    /// For a row whose options come from a source: what its search shows.
    var search: PageState.Search? = nil

    /// The id of the help paragraph.
    var helpID: String { id + "-help" }
    /// The id of the error paragraph.
    var errorID: String { id + "-error" }
    /// The id of the paragraph naming a held file.
    var heldID: String { id + "-held" }

    /// What the control's `aria-describedby` lists: its help, then its errors.
    var describedBy: String? {
        var ids: [String] = []
        if plan.help != nil { ids.append(helpID) }
        if !errors.isEmpty { ids.append(errorID) }
        if held != nil { ids.append(heldID) }
        return ids.isEmpty ? nil : ids.joined(separator: " ")
    }

}
