import FormModel
import Testing

/// Conditions that can never be true because a word lacks its `$` or its quotes, or a selector is
/// compared with an option's title (or a word no option has): each is a load problem naming the fix.
@Suite struct BareWordChecksTests {
    static let rows = [
        "{tag: sw, type: booleanSwitch}",
        "{tag: pos, type: selectorPush, options: [{value: web, title: Web}, {value: be, title: Backend}]}",
        "{tag: langs, type: multipleSelector, options: [{value: swift, title: Swift}, {value: c, title: C}]}",
    ]

    @Test(arguments: [
        ("sw == true", "'sw' names a row but lacks its '$', so it reads nothing: write $sw, at column 4"),
        ("sw.length > 2", "'sw' names a row but lacks its '$'"),
        ("$sw == YES AND pos != nil", "'pos' names a row but lacks its '$'"),
        (
            "$pos == Backend",
            "Backend without quotes is a word that reads nothing, never the option: $pos reads option values, so write 'be'"
        ),
        (
            "$pos == web",
            "web without quotes is a word that reads nothing, never the option: $pos reads option values, so write 'web'"
        ),
        ("$pos == Ops", "Ops without quotes is a word that reads nothing, not the text 'Ops': write 'Ops' in quotes"),
        ("Backend == 'x'", "'Backend' is neither a row ($tag) nor text ('Backend'), so it reads nothing"),
        ("$pos == 'Web'", "$pos reads its options' values, and 'Web' is the title of option 'web': write 'web'"),
        ("$pos IN {'be', 'Web'}", "'Web' is the title of option 'web': write 'web', in 'IN'"),
        ("$pos != 'ops'", "'ops' is none of $pos's option values ('web', 'be'), so == never holds and != always does"),
        ("'Swift' IN $langs", "$langs reads its options' values, and 'Swift' is the title of option 'swift'"),
        ("$langs CONTAINS 'rust'", "'rust' is none of $langs's option values ('swift', 'c')"),
    ])
    func aConditionThatCanNeverBeTrueIsALoadProblem(condition: String, expected: String) {
        let problems = FitChecksTests.problems(Self.rows + ["{tag: x, type: text, hidden: \"\(condition)\"}"])
        #expect(problems.contains { $0.contains("rows[3].hidden") && $0.contains(expected) }, "\(problems)")
    }

    /// Values, `$`-names, folding comparisons and partial matches stay allowed: they can hold.
    @Test func conditionsThatCanHoldAreFine() {
        let conditions = [
            "$sw == true", "$pos == 'web'", "$pos IN {'web', 'be'}", "$pos ==[c] 'WEB'", "$pos BEGINSWITH 'W'",
            "$pos == nil", "$pos == ''", "'swift' IN $langs", "$langs CONTAINS 'c'", "$pos.isHidden == NO",
        ]
        for condition in conditions {
            #expect(FitChecksTests.problems(Self.rows + ["{tag: x, type: text, hidden: \"\(condition)\"}"]) == [])
        }
    }
}
