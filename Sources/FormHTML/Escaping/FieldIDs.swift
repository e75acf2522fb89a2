/// Element ids derived from tags: `fw-` plus the tag with every character outside `[A-Za-z0-9_]`
/// turned into `_`, made unique with `_2`, `_3`…
///
/// A base id holds exactly one `-` (after `fw`), and derived ids add `-help`, `-error`, `-0`…, so a
/// derived id can never equal another element's base id, whatever the tags are.
struct FieldIDs {
    private var used: Set<String> = ["fw-form", "fw-rules", "fw-summary", "fw-main"]

    /// A fresh base id for `name`.
    mutating func make(_ name: String) -> String {
        var cleaned = ""
        for scalar in name.unicodeScalars {
            let keep =
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            cleaned.unicodeScalars.append(keep ? scalar : "_")
        }
        if cleaned.isEmpty { cleaned = "_" }
        var candidate = "fw-" + cleaned
        var counter = 2
        while used.contains(candidate) {
            candidate = "fw-\(cleaned)_\(counter)"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
