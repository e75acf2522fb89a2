/// Every binary operator's precedence and associativity, in one place.
///
/// Lowest first: `OR`/`||`, `AND`/`&&`, (comparisons, which do not chain), `+ -`, `* /`, `**`.
/// Unary `-` and `NOT` bind tighter than any binary operator of their layer.
enum OperatorTable {
    /// A binary operator of either layer.
    enum Operator: Sendable, Equatable {
        case or, and
        case arithmetic(ArithmeticOperator)
    }

    struct Entry: Sendable {
        let op: Operator
        let precedence: Int
        let rightAssociative: Bool
    }

    static let logicalFloor = 1
    static let arithmeticFloor = 4

    /// The binary operator a token spells, if any.
    static func entry(for kind: Token.Kind) -> Entry? {
        switch kind {
        case .keyword(.or), .symbol(.orOr): Entry(op: .or, precedence: 1, rightAssociative: false)
        case .keyword(.and), .symbol(.andAnd): Entry(op: .and, precedence: 2, rightAssociative: false)
        case .symbol(.plus): Entry(op: .arithmetic(.add), precedence: 4, rightAssociative: false)
        case .symbol(.minus): Entry(op: .arithmetic(.subtract), precedence: 4, rightAssociative: false)
        case .symbol(.star): Entry(op: .arithmetic(.multiply), precedence: 5, rightAssociative: false)
        case .symbol(.slash): Entry(op: .arithmetic(.divide), precedence: 5, rightAssociative: false)
        case .symbol(.starStar): Entry(op: .arithmetic(.power), precedence: 6, rightAssociative: true)
        default: nil
        }
    }

    /// The precedence of an arithmetic operator, for printing with the fewest parentheses.
    static func precedence(of op: ArithmeticOperator) -> Int {
        switch op {
        case .add, .subtract: 4
        case .multiply, .divide: 5
        case .power: 6
        }
    }

    /// The comparison operator a token spells, if any.
    static func comparator(for kind: Token.Kind) -> Comparator? {
        switch kind {
        case .symbol(.equal): .equal
        case .symbol(.notEqual): .notEqual
        case .symbol(.less): .less
        case .symbol(.lessOrEqual): .lessOrEqual
        case .symbol(.greater): .greater
        case .symbol(.greaterOrEqual): .greaterOrEqual
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.contains): .contains
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.in): .in
        case .keyword(.between): .between
        default: nil
        }
    }
}
