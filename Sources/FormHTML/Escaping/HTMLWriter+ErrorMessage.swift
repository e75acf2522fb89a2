extension HTMLWriter {
    /// Appends an error message escaped as element content, with the item it names (`item`, "Tag 2")
    /// marked `<span data-fw-item-name>`: when items are removed or moved the browser script renumbers
    /// that part, as it does the item's label. Messages are localised and may name the item anywhere
    /// ("Tag 2必须是…"), so the name is found in the text the server wrote, not assumed at its start.
    ///
    /// The name is the form's text: `nameLang` marks it when the message around it is in another
    /// language (the page's language, inside a message marked with its own).
    mutating func errorMessage(_ message: String, naming item: String?, nameLang: String?) {
        guard let item, !item.isEmpty, let range = message.firstRange(of: item) else { return text(message) }
        text(String(message[..<range.lowerBound]))
        markup("<span data-fw-item-name")
        lang(nameLang)
        markup(">")
        text(item)
        markup("</span>")
        text(String(message[range.upperBound...]))
    }
}
