import FormEngine
import FormModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SubmissionStore {
    /// The store's file system calls: each either succeeds whole and on disk, or throws and leaves the
    /// folder as it found it.
    enum Files {
        /// Makes `path` and its missing parents: at start only, so that a folder removed (or a mount
        /// gone) while serving is an error rather than made again somewhere else.
        static func makeFolders(_ path: String) throws(SubmissionStoreError) {
            // By hand rather than FileManager's: its error names no cause ("NSCocoaErrorDomain error 512").
            var made = path.hasPrefix("/") ? "/" : ""
            for part in path.split(separator: "/") where part != "." {
                made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + part
                if mkdir(made, 0o750) != 0, errno != EEXIST {
                    throw .init("cannot make the folder \(made): \(lastError())")
                }
            }
            guard isFolder(path) else { throw .init("\(path) is not a folder") }
        }

        /// Throws unless a file can be made in `folder` and each of `forms`' files there, when it
        /// exists, appended to.
        static func checkWritable(_ folder: String, forms: [String]) throws(SubmissionStoreError) {
            // A new, randomly named file proves the folder writable (a read-only mount, a wrong owner);
            // made exclusively, so the probe never follows a link or empties someone's file.
            let probe = "\(folder)/.formwright-probe-\(randomHex())"
            let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw .init("cannot write in \(folder): \(lastError())") }
            close(descriptor)
            unlink(probe)
            for form in forms {
                let path = "\(folder)/\(form).jsonl"
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }  // made at the form's first submission
                close(try openForAppending(path, creating: false))
            }
        }

        /// Makes the folder `name` in `folder` when missing (flushing `folder`, so it survives a crash).
        static func makeFolder(named name: String, in folder: String) throws(SubmissionStoreError) {
            let path = "\(folder)/\(name)"
            if mkdir(path, 0o750) == 0 { return try flushFolder(folder) }
            guard errno == EEXIST, isFolder(path) else { throw .init("cannot make the folder \(path): \(lastError())") }
        }

        /// Writes a new file at `path` holding `bytes`, and flushes it and its folder.
        static func create(_ path: String, holding bytes: [UInt8]) throws(SubmissionStoreError) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
            guard descriptor >= 0 else { throw .init("cannot make \(path): \(lastError())") }
            defer { close(descriptor) }
            do throws(SubmissionStoreError) {
                try writeAll(bytes, to: descriptor, path: path)
                try flush(descriptor, path: path)
                try flushFolder(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
            } catch {
                unlink(path)  // ours: made exclusively above
                throw error
            }
        }

        /// What `append` found at the end of a form's file before it wrote, for the log.
        enum Tail: Equatable {
            /// Whole lines, or nothing.
            case whole
            /// A whole record without its newline (a hand edit): the newline was added.
            case newlineAdded
            /// The start of a line a failed write or a crash left (never answered as kept): cut off.
            case cutOff(bytes: Int)
        }

        /// Appends `bytes` (one whole line) to the file at `path` in `folder`, made when missing, and
        /// flushes it (and the folder, for a new file). The file only ever holds whole lines: a line
        /// cut short is cut off first (a last record that is whole JSON but for its newline gets the
        /// newline), and a write that fails is cut off again.
        static func append(_ bytes: [UInt8], to path: String, in folder: String) throws(SubmissionStoreError) -> Tail {
            let descriptor = try openForAppending(path, creating: true)
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw .init("cannot read \(path): \(lastError())") }
            var line = bytes
            let size = try wholeLinesEnd(descriptor, size: status.st_size, path: path)
            var tail = Tail.whole
            if size < status.st_size {
                if try tailIsRecord(descriptor, from: size, to: status.st_size, path: path) {
                    line = [0x0A] + bytes
                    tail = .newlineAdded
                } else {
                    guard ftruncate(descriptor, size) == 0 else {
                        throw .init("cannot cut the unfinished line off \(path): \(lastError())")
                    }
                    tail = .cutOff(bytes: Int(status.st_size - size))
                }
            }
            let start = tail == .newlineAdded ? status.st_size : size
            do throws(SubmissionStoreError) {
                try writeAll(line, to: descriptor, path: path)
                try flush(descriptor, path: path)
                // A file new in the folder is there after a crash only once the folder is flushed too.
                if status.st_size == 0 { try flushFolder(folder) }
            } catch {
                _ = ftruncate(descriptor, start)
                _ = fdatasyncOrFsync(descriptor)
                throw error
            }
            return tail
        }

        /// Opens `path` for appending; throws unless it is a regular file. Never waits: a pipe with no
        /// reader is refused at once rather than holding the store. `creating` makes it when missing.
        private static func openForAppending(_ path: String, creating: Bool) throws(SubmissionStoreError) -> Int32 {
            // Read as well: a line cut short is found by reading the end of the file back.
            let flags = O_RDWR | O_APPEND | O_NONBLOCK | O_CLOEXEC | (creating ? O_CREAT : 0)
            let descriptor = open(path, flags, 0o640)
            guard descriptor >= 0 else { throw .init("cannot open \(path) for appending: \(lastError())") }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
                close(descriptor)
                throw .init("\(path) is not a regular file")
            }
            return descriptor
        }

        /// Where the file's last whole line ends: `size`, unless its last byte is not a newline.
        private static func wholeLinesEnd(
            _ descriptor: Int32, size: off_t, path: String
        ) throws(SubmissionStoreError) -> off_t {
            guard size > 0 else { return 0 }
            var last: UInt8 = 0
            guard pread(descriptor, &last, 1, size - 1) == 1 else { throw .init("cannot read \(path): \(lastError())") }
            if last == 0x0A { return size }
            // Rare (a crash mid-write, a hand edit): read back to the newline before the last line.
            var end = size
            var buffer = [UInt8](repeating: 0, count: 4096)
            while end > 0 {
                let start = max(0, end - off_t(buffer.count))
                let wanted = Int(end - start)
                let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, start) }
                guard read == wanted else { throw .init("cannot read \(path): \(lastError())") }
                if let newline = buffer[..<wanted].lastIndex(of: 0x0A) { return start + off_t(newline) + 1 }
                end = start
            }
            return 0
        }

        /// Whether the bytes from `start` to `end` are one whole JSON object: a record, not a fragment.
        private static func tailIsRecord(
            _ descriptor: Int32, from start: off_t, to end: off_t, path: String
        ) throws(SubmissionStoreError) -> Bool {
            var tail = [UInt8](repeating: 0, count: Int(end - start))
            let read = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, start) }
            guard read == tail.count else { throw .init("cannot read \(path): \(lastError())") }
            return (try? JSONSerialization.jsonObject(with: Data(tail))) is [String: Any]
        }

        private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SubmissionStoreError)
        {
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw .init("cannot write \(path): \(lastError())") }
                done += count
            }
        }

        private static func flush(_ descriptor: Int32, path: String) throws(SubmissionStoreError) {
            guard fdatasyncOrFsync(descriptor) == 0 else { throw .init("cannot flush \(path) to disk: \(lastError())") }
        }

        /// Flushes a folder's entries, so that a file or folder made in it survives a crash.
        private static func flushFolder(_ folder: String) throws(SubmissionStoreError) {
            let descriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .init("cannot open the folder \(folder): \(lastError())") }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw .init("cannot flush the folder \(folder): \(lastError())") }
        }

        private static func fdatasyncOrFsync(_ descriptor: Int32) -> Int32 {
            #if os(Linux)
                fdatasync(descriptor)
            #else
                fsync(descriptor)
            #endif
        }

        private static func isFolder(_ path: String) -> Bool {
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR)
        }

        /// `2026-11-22T21:30:05.123Z`, and `20261122T213005123Z` for file names.
        static func timestamp(_ date: Date) -> (iso: String, compact: String) {
            let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
            var seconds = time_t(milliseconds / 1000)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func format(_ pattern: String) -> String {
                var text = [CChar](repeating: 0, count: 32)
                let count = strftime(&text, text.count, pattern, &parts)
                return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let millis = String(milliseconds % 1000 + 1000).dropFirst()  // three digits, zeros kept
            return ("\(format("%Y-%m-%dT%H:%M:%S")).\(millis)Z", "\(format("%Y%m%dT%H%M%S"))\(millis)Z")
        }

        /// 64 random bits in hex: a file name no client can choose or guess.
        static func randomHex() -> String {
            let hex = String(UInt64.random(in: .min ... .max), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }

        /// The extension a kept file gets, so it opens with the right program: that of the well-known
        /// format its bytes begin as (a PNG is `.png` whatever it was called), else the browser's name's
        /// when it names an inert kind of file (`.pdf`, `.csv`, `.docx`), else none. A name never makes a
        /// kept file one that a browser would render or a shell run (`.html`, `.svg`, `.sh`), whatever
        /// later serves or opens the folder; nothing else of the name reaches the disk.
        static func fileExtension(of file: UploadedFile) -> String {
            if let type = FileAccept.signatureType(of: file.bytes), let known = signatureExtensions[type] {
                return known
            }
            return fileExtension(of: file.filename)
        }

        /// The extension of `filename` when it is one of the inert kinds `inertExtensions` lists.
        static func fileExtension(of filename: String) -> String {
            guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return "" }
            let candidate = filename[filename.index(after: dot)...].lowercased()
            return inertExtensions.contains(candidate) ? "." + candidate : ""
        }

        private static let signatureExtensions = [
            "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
            "application/pdf": ".pdf",
        ]

        /// Kinds of file that hold data, not code or markup a program would run or render.
        private static let inertExtensions: Set<String> = [
            "txt", "csv", "tsv", "json", "pdf", "png", "jpg", "jpeg", "gif", "webp", "avif", "heic", "heif", "bmp",
            "tif", "tiff", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "zip", "gz",
            "7z", "mp3", "m4a", "wav", "ogg", "mp4", "mov", "webm",
        ]

        static func lastError() -> String { String(cString: strerror(errno)) }
    }
}
