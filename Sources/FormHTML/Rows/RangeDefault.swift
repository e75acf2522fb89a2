import FormModel
import Foundation

/// The value a browser gives a range input that has no `value` (HTML §4.10.5.1.13, "Range state"): "the
/// minimum plus half the difference between the minimum and the maximum, unless the maximum is less
/// than the minimum, in which case the default value is the minimum", the minimum defaulting to 0 and
/// the maximum to 100; then, on a step mismatch, "the nearest number for which the element would not
/// suffer from a step mismatch, and which is greater than or equal to the minimum, and, if the maximum
/// is not less than the minimum, which is less than or equal to the maximum", the one nearer positive
/// infinity on a tie. The step is 1 by default and counts from the step base, which is the minimum
/// here (the `min` attribute, else 0 with no `value` attribute). The slider's `<output>` shows it, so
/// the page says what the form posts before anyone moves the slider.
enum RangeDefault {
    static func text(min: FormValue?, max: FormValue?, step: FormValue?) -> String {
        let minimum = number(min) ?? 0
        let maximum = number(max) ?? 100
        guard maximum >= minimum else { return "\(minimum)" }
        let midpoint = minimum + (maximum - minimum) / 2
        // "If … parsing … results in an error, or zero, or a number less than zero": the default step.
        let step = number(step).flatMap { $0 > 0 ? $0 : nil } ?? 1
        // Steps are counted from the minimum, so `steps` is never negative: `.plain` rounds a half up.
        var steps = (midpoint - minimum) / step
        var rounded = Decimal()
        NSDecimalRound(&rounded, &steps, 0, .plain)
        var value = minimum + rounded * step
        if value > maximum { value -= step }
        return "\(value)"
    }

    private static func number(_ value: FormValue?) -> Decimal? {
        switch value {
        case .integer(let number): Decimal(number)
        case .decimal(let number): number
        default: nil
        }
    }
}
