/// Immutable response content whose bytes libmicrohttpd sends without copying them.
///
/// The bytes live in one allocation owned by a reference-counted storage object; the server hands
/// libmicrohttpd a pointer into it and keeps the storage alive until the library is done. One buffer,
/// not parts sent as an I/O vector: libmicrohttpd 0.9.75 sends a buffer's bytes in the same write as
/// the header, an I/O vector's in a write of its own.
public struct ResponseBody: Sendable {
    let storage: ByteStorage

    /// No content.
    public static let empty = ResponseBody(bytes: [])

    /// The UTF-8 bytes of `text`.
    public init(_ text: String) {
        var text = text
        storage = text.withUTF8 { ByteStorage(copying: [UnsafeRawBufferPointer($0)]) }
    }

    /// A copy of `bytes`.
    public init(bytes: [UInt8]) {
        storage = bytes.withUnsafeBytes { ByteStorage(copying: [$0]) }
    }

    /// A copy of raw bytes.
    public init(copying bytes: UnsafeRawBufferPointer) {
        storage = ByteStorage(copying: [bytes])
    }

    /// The bytes of `parts` one after another, copied once into one allocation.
    public init(concatenating parts: UnsafeRawBufferPointer...) {
        storage = ByteStorage(copying: parts)
    }

    /// The number of bytes.
    public var count: Int { storage.bytes.count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(storage.bytes)
    }

    /// The bytes as an array, for tests and small bodies.
    public var bytes: [UInt8] { Array(storage.bytes) }
}

/// One heap allocation holding a response's bytes.
///
/// `@unchecked Sendable`: the bytes are written once in `init` and only read afterwards.
final class ByteStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(copying sources: [UnsafeRawBufferPointer]) {
        let total = sources.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        var offset = 0
        for source in sources {
            if let base = source.baseAddress, source.count > 0 {
                (buffer.baseAddress! + offset).copyMemory(from: base, byteCount: source.count)
            }
            offset += source.count
        }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<total])
    }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}
