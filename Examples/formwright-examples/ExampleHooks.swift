import FormModel
import FormServer

/// The Swift side of the examples: a form written in Swift with a custom validator (`invitation`), two
/// row types of their own and a form using them (`feedback`), a form made from a Swift type (`talk`),
/// and the stored accounts `Forms/account.yaml` edits. An application with its own forms registers its
/// own hooks the same way (docs/swift.md, "Swift hooks").
enum ExampleHooks {
    /// A form written in Swift, served beside the folder's descriptors: its invitation code is checked
    /// by a closure, which a descriptor would call by name (`{kind: custom, name: invitationCode}`).
    static let invitation = FormDefinition("invitation", title: "Join with an invitation") {
        SectionDefinition {
            RowDefinition(.text, "name", title: "Name").required().maxLength(100)
            RowDefinition(.text, "code", title: "Invitation code").required()
                .validate("invitationCode") { value in
                    // FW- and four digits.
                    let text = value.description
                    let digits = text.dropFirst(3)
                    return text.hasPrefix("FW-") && digits.count == 4 && digits.allSatisfy(\.isASCII)
                        && digits.allSatisfy(\.isNumber)
                        ? nil : "Invitation codes look like FW-1234"
                }
        }
    }
    .submitTitle("Join")

    /// A form written in Swift with the examples' own row types, a star rating and a location, and a city
    /// searched among thousands (`ExampleCities`). A descriptor names them the same way (`type: rating`,
    /// `optionsFrom: cities`), once `make` has registered them.
    static let feedback = FormDefinition("feedback", title: "How was the meetup?") {
        SectionDefinition {
            RowDefinition(ExampleRowTypes.rating, "stars", title: "Your rating").required()
            RowDefinition(.selectorPush, "city", title: "Your city").optionsFrom("cities")
                .help("Type a few letters of its name, then choose it")
            RowDefinition(.text, "neighbourhood", title: "Your neighbourhood").hidden("$city == nil")
            RowDefinition(ExampleRowTypes.location, "where", title: "Where you came from")
                .help("Latitude and longitude, such as 48.8566, 2.3522")
            RowDefinition(.textView, "comments", title: "Comments").maxLength(2000)
        }
    }
    .submitTitle("Send feedback")

    /// The hooks the examples' commands use. The account example's are added only when `formsFolder`
    /// (the folder `serve` serves) has it: hooks for a form that is not served stop the server at
    /// start, and another folder's `account` form is not the example's.
    static func make(formsFolder: String?) -> FormHooks {
        var hooks = FormHooks()
        hooks.rowType(ExampleRowTypes.rating)
        hooks.rowType(ExampleRowTypes.location)
        hooks.optionSource(ExampleCities.source)
        hooks.serve(invitation)
        hooks.serve(feedback)
        hooks.serve(ExampleModels.talk)
        if let formsFolder, ExampleAccounts.isServed(in: formsFolder) {
            let accounts = ExampleAccounts()
            hooks.records("account") { accounts.find($0) }
            hooks.handle("account") { accounts.save($0) }
        }
        return hooks
    }
}
