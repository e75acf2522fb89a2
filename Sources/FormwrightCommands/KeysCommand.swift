import ArgumentParser
import FormServer
import FormStore
import Foundation

/// `formwright keys create|list|revoke`: the API keys a store knows (`APIKey`).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, list or revoke the API keys that read, export, erase or post submissions.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// `keys create NAME --scope read,export [--form ID]…`: the key printed once, alone on the last line.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a key; it is printed once, alone on the last line, and the store keeps only its hash.")

        @OptionGroup var store: StoreOption

        @Argument(help: "The key's name: letters, digits, '.', '_' or '-', at most 64.")
        var name: String

        @ArgumentParser.Option(help: "What it may do, comma-separated: read, export, delete, submit, deliver.")
        var scope: String

        @ArgumentParser.Option(help: "A form it may do it to (repeat for more); every form when none is given.")
        var form: [String] = []

        func validate() throws {
            guard !name.isEmpty, name.count <= 64,
                name.unicodeScalars.allSatisfy({
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
                })
            else { throw ValidationError("a key's name is 1 to 64 letters, digits, '.', '_' or '-', not '\(name)'") }
            if case .failure(let error) = APIKey.scopes(scope) { throw ValidationError("--scope: \(error.message)") }
            for id in form where id.isEmpty || id.contains(" ") {
                throw ValidationError("--form '\(id)' is no form id")
            }
        }

        func run() throws {
            let scopes = try APIKey.scopes(scope).get().map(\.rawValue)
            let key = APIKey.make()
            let stored = StoredKey(
                name: name, hash: APIKey.hash(key), scopes: scopes, forms: form,
                created: ISO8601DateFormatter().string(from: Date()))
            guard try store.open().add(stored) else {
                FileHandle.standardError.write(
                    Data("a key named '\(name)' exists: revoke it first, or pick another name\n".utf8))
                throw ExitCode(1)
            }
            let forms = form.isEmpty ? "every form" : "the forms " + form.joined(separator: ", ")
            print("made the key '\(name)': \(scopes.joined(separator: ", ")) on \(forms). It is shown once, here:")
            print(key)
        }
    }

    /// `keys list`: one line a key: name, scopes, forms, when made. Never the key.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys: name, scopes, forms, when made.")

        @OptionGroup var store: StoreOption

        func run() throws {
            for key in try store.open().keys() {
                let forms = key.forms.isEmpty ? "*" : key.forms.joined(separator: ",")
                print("\(key.name) \(key.scopes.joined(separator: ",")) \(forms) \(key.created)")
            }
        }
    }

    /// `keys revoke NAME`: the key stops working on every server of the store at once.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: every server refuses it from now on.")

        @OptionGroup var store: StoreOption

        @Argument(help: "The key's name.")
        var name: String

        func run() throws {
            guard try store.open().revokeKey(named: name) else {
                FileHandle.standardError.write(Data("no key named '\(name)'\n".utf8))
                throw ExitCode(1)
            }
            print("revoked '\(name)'")
        }
    }
}
