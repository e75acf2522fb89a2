/// A submission to keep: its id, its form, when it came (ISO 8601, UTC), its two payloads as JSON
/// text, and the files it carried.
public struct StoredSubmission: Sendable, Equatable {
    /// Its id, given when it was kept.
    public let id: SubmissionID
    /// The form it was posted to.
    public let formID: String
    /// When it came: ISO 8601, UTC, to the millisecond.
    public let received: String
    /// XLForm's `httpParameters` payload, JSON text.
    public let httpParameters: String
    /// XLForm's `formValues` payload, JSON text.
    public let formValues: String
    /// Its files; empty in a listing.
    public let files: [StoredFile]
    /// Which version its payloads and files are: 1 as sent, one more at each edit (`revise`).
    public let version: Int
    /// When its version was saved, for a submission edited since it came (ISO 8601, UTC); nil for one
    /// never edited.
    public let edited: String?
    /// The delivery jobs to write with it, in the same transaction; empty in anything read back.
    public let deliveries: [StoredDelivery]
    /// What to count it under besides its form (`SubmissionCounts`): its answers to the rows the operator's
    /// view charts, each a line of text the server chooses; empty in anything read back.
    public let answers: [String]

    /// A submission with these parts.
    public init(
        id: SubmissionID, formID: String, received: String, httpParameters: String, formValues: String,
        files: [StoredFile] = [], version: Int = 1, edited: String? = nil, deliveries: [StoredDelivery] = [],
        answers: [String] = []
    ) {
        self.id = id
        self.formID = formID
        self.received = received
        self.httpParameters = httpParameters
        self.formValues = formValues
        self.files = files
        self.version = version
        self.edited = edited
        self.deliveries = deliveries
        self.answers = answers
    }
}

/// One version of a kept submission: what it held from when it was saved until the next edit.
public struct StoredVersion: Sendable, Equatable {
    /// 1 for the submission as sent, one more at each edit.
    public let version: Int
    /// When it was saved: ISO 8601, UTC, to the millisecond.
    public let saved: String
    /// XLForm's `httpParameters` payload, JSON text.
    public let httpParameters: String
    /// XLForm's `formValues` payload, JSON text.
    public let formValues: String
    /// Its files.
    public let files: [StoredFile]

    /// A version with these parts.
    public init(version: Int, saved: String, httpParameters: String, formValues: String, files: [StoredFile]) {
        self.version = version
        self.saved = saved
        self.httpParameters = httpParameters
        self.formValues = formValues
        self.files = files
    }
}

/// What saving an edit of a kept submission came to (`SubmissionDatabase.revise`).
public enum Revision: Sendable, Equatable {
    /// Saved as this version.
    case saved(version: Int)
    /// Not saved: the submission was saved again since the version the edit was made from, and is at
    /// this version now.
    case changed(current: Int)
    /// Not saved: the form has no such submission (erased since).
    case missing
}

/// A file kept with its submission: the tag it came under (`cv`, or `docs[0]` for an item of a
/// multivalued section), the name and media type the browser gave, and its bytes.
public struct StoredFile: Sendable, Equatable {
    /// The row it came under: `cv`, or `docs[0]` for an item of a multivalued section.
    public let tag: String
    /// The name the browser gave, without folders.
    public let filename: String
    /// The media type the browser gave.
    public let contentType: String
    /// Its bytes.
    public let bytes: [UInt8]

    /// A file with these parts.
    public init(tag: String, filename: String, contentType: String, bytes: [UInt8]) {
        self.tag = tag
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// Why a store could not open, or keep or read a submission: what the database said, with its name.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the store.
    public let description: String
    init(_ description: String) { self.description = description }
}

extension StoredSubmission {
    /// The same submission with `files`.
    func with(files: [StoredFile]) -> StoredSubmission {
        StoredSubmission(
            id: id, formID: formID, received: received, httpParameters: httpParameters, formValues: formValues,
            files: files, version: version, edited: edited)
    }

    /// Its payloads and files as a version: saved when it was edited last, or when it came.
    public var asVersion: StoredVersion {
        StoredVersion(
            version: version, saved: edited ?? received, httpParameters: httpParameters, formValues: formValues,
            files: files)
    }
}

/// Which ids a listing takes: from `from` (itself included) to before `before`, either open. Ids sort
/// by time, so a time range is an id range (`SubmissionID.first(atMillisecond:)`), and a page's last id
/// is where the next page starts before.
public struct SubmissionRange: Sendable, Equatable {
    /// The first id taken; nil for the oldest.
    public var from: SubmissionID?
    /// The id the range stops before; nil for none.
    public var before: SubmissionID?

    /// The ids from `from` up to `before`; both open unless given.
    public init(from: SubmissionID? = nil, before: SubmissionID? = nil) {
        self.from = from
        self.before = before
    }

    /// The submissions received from `since` up to before `until`, milliseconds since 1970, either open.
    public init(since: UInt64?, until: UInt64?) {
        self.init(
            from: since.map(SubmissionID.first(atMillisecond:)), before: until.map(SubmissionID.first(atMillisecond:)))
    }

    /// The bounds as text for a query: below every id, and above every id, when open.
    var bounds: (from: String, before: String) {
        (from?.description ?? "0", before?.description ?? String(repeating: "Z", count: 27))
    }
}
