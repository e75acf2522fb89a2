import FormModel
import FormServer

/// The Swift side of the example forms: the custom validator `Forms/validations.yaml` calls by name,
/// and the stored accounts `Forms/account.yaml` edits.
/// A deployment with its own forms registers its own hooks the same way (docs/swift.md, "Swift hooks").
enum ExampleHooks {
    static let invitationCode = CustomValidator("invitationCode") { value in
        // FW- and four digits: what the validations example asks for.
        let text = value.description
        let digits = text.dropFirst(3)
        return text.hasPrefix("FW-") && digits.count == 4 && digits.allSatisfy(\.isASCII)
            && digits.allSatisfy(\.isNumber)
            ? nil : "Invitation codes look like FW-1234"
    }

    /// The hooks `serve`, `render` and `evaluate` use. The account example's are added only when
    /// `formsFolder` (the folder `serve` serves) has it: hooks for a form that is not served stop the
    /// server at start, and another folder's `account` form is not the example's.
    static func make(formsFolder: String? = nil) -> FormHooks {
        var hooks = FormHooks()
        hooks.validators[invitationCode.name] = invitationCode
        if let formsFolder, ExampleAccounts.isServed(in: formsFolder) {
            let accounts = ExampleAccounts()
            hooks.records("account") { accounts.find($0) }
            hooks.handle("account") { accounts.save($0) }
        }
        return hooks
    }
}
