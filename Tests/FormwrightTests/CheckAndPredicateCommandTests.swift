import Foundation
import HTTPTestClient
import Testing

extension CommandSuites {
    @Suite struct CheckAndPredicateCommandTests {
        @Test func checkPrintsASummaryPerFormForTheExamples() async throws {
            try await offPool {
                let (status, output) = try runFormwright(["check", "Forms"])
                #expect(status == 0)
                #expect(output.contains("ok event: 5 sections, 12 rows, 1 condition\n"))
                // One is singular.
                #expect(output.contains("ok booleans: 1 section, 2 rows, 0 conditions\n"))
                #expect(
                    !output.contains(" 1 sections") && !output.contains(" 1 rows") && !output.contains(" 1 conditions"))
            }
        }

        @Test func checkWarnsOfAConditionThatFailsOnTheDefaultsWithoutFailing() async throws {
            try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try
                    "sections: [{rows: [{tag: country, type: text}, {tag: note, type: text, hidden: '$country.length > 20'}]}]"
                    .write(to: folder.appendingPathComponent("where.yaml"), atomically: true, encoding: .utf8)
                let (status, output) = try runFormwright(["check", folder.path])
                #expect(status == 0)
                #expect(
                    output.contains(
                        "warning: form 'where', row 'note' (hidden): the condition `$country.length > 20` cannot be "
                            + "evaluated on the form's defaults and counts as false there: key 'length' applied to null"
                    ))
            }
        }

        @Test func checkPrintsEveryProblemAndExits1() async throws {
            try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try "sections: [{rows: [{tag: a, type: txt}, {tag: b, type: text, hidden: '$zz == 1'}]}]"
                    .write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
                let (status, output) = try runFormwright(["check", folder.path])
                #expect(status == 1)
                #expect(output.contains("bad.yaml: sections[0].rows[0].type: unknown row type 'txt'"))
                #expect(output.contains("bad.yaml: sections[0].rows[1].hidden: unknown tag 'zz'"))
                #expect(output.contains("2 problems found"))
                // serve refuses the same folder with the same messages.
                let serve = try runFormwright(["serve", "--port", "0", "--forms", folder.path])
                #expect(serve.status == 1)
                #expect(serve.output.contains("unknown row type 'txt'"))
            }
        }

        /// `check` knows the custom validators `serve` registers: a form calling another passes neither,
        /// and both say where the call is. The product registers none; the examples' binary registers
        /// `invitationCode`. Hidden files (an editor's, a Mac's `._x.yaml`) are no forms.
        @Test func checkAndServeRefuseAnUnregisteredCustomValidatorAndSkipHiddenFiles() async throws {
            let (check, serve, product) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try """
                sections: [{rows: [{tag: code, type: text, validators: [{kind: custom, name: invitationCode}]},
                  {tag: other, type: text, validators: [{kind: custom, name: nosuch}]}]}]
                """.write(to: folder.appendingPathComponent("signup.yaml"), atomically: true, encoding: .utf8)
                try Data([0x00, 0x05, 0x16, 0x07, 0xFF, 0xFE]).write(to: folder.appendingPathComponent("._signup.yaml"))
                return (
                    try runFormwright(["check", folder.path], binary: examplesBinary),
                    try runFormwright(["serve", "--port", "0", "--forms", folder.path], binary: examplesBinary),
                    try runFormwright(["check", folder.path])
                )
            }
            let expected =
                "form 'signup', sections[0].rows[1].validators[0]: calls the custom validator 'nosuch', which is not registered"
            #expect(check.status == 1)
            #expect(check.output.contains(expected))
            #expect(!check.output.contains("'invitationCode'"))
            #expect(!check.output.contains("._signup"))
            #expect(serve.status == 1)
            #expect(serve.output.contains(expected))
            #expect(product.status == 1)
            #expect(product.output.contains(expected))
            #expect(product.output.contains("calls the custom validator 'invitationCode', which is not registered"))
        }

        /// `check`, `render` and `evaluate` know the row types `serve` registers: the examples' binary
        /// registers `rating` and `location`, the product none, so a descriptor naming them passes one
        /// and not the other, which names the file and the types it knows.
        @Test func theCommandsKnowTheRegisteredRowTypes() async throws {
            let (check, render, evaluate, product) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("talk.yaml")
                try """
                sections: [{rows: [{tag: stars, type: rating, title: Stars, required: true},
                  {tag: where, type: location, title: Where}, {tag: city, type: selectorPush, optionsFrom: cities}]}]
                """.write(to: file, atomically: true, encoding: .utf8)
                return (
                    try runFormwright(["check", folder.path], binary: examplesBinary),
                    try runFormwright(["render", file.path], binary: examplesBinary),
                    try runFormwright(
                        ["evaluate", file.path], input: #"{"stars": 9, "where": "1.5, 2"}"#, binary: examplesBinary),
                    try runFormwright(["check", folder.path])
                )
            }
            #expect(check.status == 0)
            #expect(check.output.contains("ok talk: 1 section, 3 rows"))
            #expect(render.status == 0)
            #expect(render.output.contains(#"data-rating="stars""#))
            #expect(
                evaluate.output.contains(#""message":"Stars must be one of the listed choices","code":"unknownOption""#)
            )
            #expect(evaluate.output.contains("1.5,2"))
            #expect(product.status == 1)
            #expect(product.output.contains("talk.yaml: sections[0].rows[0].type: unknown row type 'rating'"))
            #expect(product.output.contains("talk.yaml: sections[0].rows[1].type: unknown row type 'location'"))
            // Once its types load, the product would also find the source missing; the examples' binary has it.
            #expect(!check.output.contains("'cities'"))
        }

        /// `check` knows the option sources `serve` registers: the examples' `cities`, which the product lacks.
        @Test func checkKnowsTheRegisteredOptionSources() async throws {
            let (examples, product) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try "sections: [{rows: [{tag: city, type: selectorPush, optionsFrom: cities}]}]"
                    .write(to: folder.appendingPathComponent("trip.yaml"), atomically: true, encoding: .utf8)
                return (
                    try runFormwright(["check", folder.path], binary: examplesBinary),
                    try runFormwright(["check", folder.path])
                )
            }
            #expect(examples.status == 0)
            #expect(product.status == 1)
            #expect(
                product.output.contains(
                    "form 'trip', sections[0].rows[0]: takes its options from 'cities', which is not registered in Swift"
                ))
        }

        /// A form's own texts that would never be shown, or shown with a `{placeholder}` as written.
        @Test func checkAndServeRefuseTextsThatWouldNeverShowOrShowBroken() async throws {
            let (check, serve) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try """
                locale: fr
                messages:
                  fr: {requird: "Champ obligatoire", required: "{nom} manque", itemAdded: "{item} ajouté", bonjour: Salut}
                  fr_FR: {submit: Envoyer}
                sections: [{rows: [{tag: nom, type: text, required: true}]}]
                """.write(to: folder.appendingPathComponent("texts.yaml"), atomically: true, encoding: .utf8)
                return (
                    try runFormwright(["check", folder.path]),
                    try runFormwright(["serve", "--port", "0", "--forms", folder.path])
                )
            }
            #expect(check.status == 1)
            for expected in [
                "form 'texts', messages.fr.requird: no message or page text has this code (did you mean 'required'?)",
                // No code is near: none is suggested.
                "form 'texts', messages.fr.bonjour: no message or page text has this code (docs/submissions.md, \"Error codes\", lists the codes)",
                "form 'texts', messages.fr.required: '{nom}' is not filled in for this code (it fills in {name})",
                "form 'texts', messages.fr_FR: 'fr_FR' is not a language tag (BCP 47, such as 'fr' or 'fr-FR')",
            ] {
                #expect(check.output.contains(expected), "\(check.output)")
                #expect(serve.output.contains(expected))
            }
            #expect(!check.output.contains("itemAdded"))
            #expect(serve.status == 1)
        }

        /// Settings that would render meaningless HTML, and a JSON file that is no JSON, stop check and
        /// serve alike, naming the file and the place.
        @Test func checkAndServeRefuseMeaninglessHTMLAndATrailingComma() async throws {
            let (check, serve) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try """
                submitTitle: ""
                locale: en_GB
                sections: [{rows: [{type: button, title: Go}, {tag: f, type: upload, accept: pdf}]}]
                """.write(to: folder.appendingPathComponent("html.yaml"), atomically: true, encoding: .utf8)
                try #"{"sections": [{"rows": [{"tag": "a", "type": "text"},]}]}"#
                    .write(to: folder.appendingPathComponent("comma.json"), atomically: true, encoding: .utf8)
                return (
                    try runFormwright(["check", folder.path]),
                    try runFormwright(["serve", "--port", "0", "--forms", folder.path])
                )
            }
            #expect(check.status == 1)
            for expected in [
                "comma.json: a comma before ']' is not allowed in JSON: remove it (line 1, column 53)",
                "html.yaml: submitTitle: the submit button's text is empty",
                "html.yaml: locale: 'en_GB' is not a well-formed language tag (BCP 47, such as 'fr' or 'en-GB')",
                "html.yaml: sections[0].rows[0].url: a button row needs a url",
                "html.yaml: sections[0].rows[1].accept: 'pdf' is neither a media type nor an extension",
            ] {
                #expect(check.output.contains(expected), "\(check.output)")
                #expect(serve.output.contains(expected), "\(serve.output)")
            }
            #expect(serve.status == 1)
        }

        @Test func checkRefusesAMultipleSelectorAsAMultivaluedItem() async throws {
            // The expectations are checked here, not in the thread `offPool` starts: an issue recorded on a
            // thread of its own is not attributed to this test, which would pass whatever happened.
            let (status, output) = try await offPool {
                let folder = try temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                try """
                sections:
                  - multivaluedTag: toppings
                    multivaluedOptions: [insert]
                    rowTemplate: { type: multipleSelector, title: Toppings, options: [x, y] }
                """
                .write(to: folder.appendingPathComponent("sets.yaml"), atomically: true, encoding: .utf8)
                return try runFormwright(["check", folder.path])
            }
            #expect(status == 1)
            #expect(
                output.contains(
                    "sets.yaml: sections[0].rowTemplate.type: the multivalued section 'toppings' cannot collect "
                        + "multipleSelector items"))
            #expect(output.contains("1 problem found"))
        }

        @Test func predicateAnswersOneLinePerInputLine() async throws {
            try await offPool {
                let lines = [
                    #"{"predicate": "$alert == 'never'", "vars": {"alert": "never"}}"#,
                    #"{"predicate": "$x BETWEEN {1, 5}", "vars": {"x": 9}}"#,
                    #"{"predicate": "$x ==", "vars": {}}"#,
                    "not json",
                ]
                let (status, output, _) = try runFormwright(["predicate"], input: lines.joined(separator: "\n") + "\n")
                let answers = output.split(separator: "\n")
                #expect(status == 0)
                #expect(answers.count == 4)
                #expect(answers[0] == #"{"result":true}"#)
                #expect(answers[1] == #"{"result":false}"#)
                #expect(answers[2].contains("error"))
                #expect(answers[3].contains("error"))
            }
        }
    }
}
