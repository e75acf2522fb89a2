import FormModel
import FormServer

/// The Swift side of the example forms: the custom validator `Forms/validations.yaml` calls by name.
/// A deployment with its own forms registers its own hooks the same way (README, "Swift hooks").
enum ExampleHooks {
    static let invitationCode = CustomValidator("invitationCode") { value in
        // FW- and four digits: what the validations example asks for.
        let text = value.description
        let digits = text.dropFirst(3)
        return text.hasPrefix("FW-") && digits.count == 4 && digits.allSatisfy(\.isASCII)
            && digits.allSatisfy(\.isNumber)
            ? nil : "Invitation codes look like FW-1234"
    }

    /// The hooks `serve` and `evaluate` use.
    static func make() -> FormHooks {
        var hooks = FormHooks()
        hooks.validators[invitationCode.name] = invitationCode
        return hooks
    }
}
