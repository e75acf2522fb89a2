/// A state's errors grouped by where they are shown beside a field.
struct PageErrors {
    /// An item of a multivalued section.
    struct ItemKey: Hashable {
        let section: Int
        let position: Int
    }

    /// Errors per row index, in order.
    var row: [Int: [PageError]] = [:]
    /// Errors per multivalued item, in order.
    var item: [ItemKey: [PageError]] = [:]
    /// Errors about a multivalued section as a whole, per section index.
    var section: [Int: [PageError]] = [:]

    init(_ errors: [PageError]) {
        for error in errors {
            if let index = error.row {
                row[index, default: []].append(error)
            } else if let section = error.section, let position = error.position {
                item[ItemKey(section: section, position: position), default: []].append(error)
            } else if let section = error.section {
                self.section[section, default: []].append(error)
            }
        }
    }
}
