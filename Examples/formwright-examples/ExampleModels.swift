import FormModel
import Foundation

/// A form made from a Swift type (TLFormView's forms from a model class): the examples' server serves
/// `talk`, whose rows are `Talk`'s properties, and an application would read a valid submission back
/// with `submission.decode(Talk.self)` (docs/swift.md, "Forms from Swift types").
enum ExampleModels {
    /// A talk proposed for the meetup.
    struct Talk: Codable, Sendable {
        /// How deep the talk goes: a selector of these three.
        enum Level: String, Codable, CaseIterable, Sendable { case beginner, intermediate, advanced }
        var title: String
        var speaker_name: String
        var email: String
        var startsAt: Date
        var minutes: Int?
        var level: Level
        var recorded: Bool
        var tags: [String]
    }

    static let talk = FormDefinition(model: Talk.self, id: "talk", title: "Propose a talk")
        .submitTitle("Propose")
        .layout(lines: [["startsAt", "minutes"]])
}
