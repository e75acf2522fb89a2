/// How a search compares text: the letters A to Z in either case, every other character as itself,
/// which is what SQLite's `lower()` folds. Both stores and the server fold alike, so all three find the
/// same submissions.
public enum SearchText {
    /// `text` with A to Z made a to z.
    public static func folded(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
