/// The largest file an upload row accepts and what the row says of a larger one: written on its file
/// input (`data-fw-max-bytes`, `data-fw-too-large`), so the page's script can say it when the file is
/// chosen, before a post the server would refuse.
public struct UploadLimit: Sendable, Hashable {
    /// The largest size accepted, in bytes.
    public let bytes: Int
    /// The row's message for a larger file, in the page's language ("Photo must be a file of at most 1 MB").
    public let message: String

    /// A limit of `bytes`, with the row's `message` for a larger file.
    public init(bytes: Int, message: String) {
        self.bytes = bytes
        self.message = message
    }
}
