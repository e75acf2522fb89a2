import FormModel
import Foundation

/// The value a browser's range input holds (HTML §4.10.5.1.13, "Range state"), which the slider's
/// `<output>` shows, so the page says what the form posts before anyone moves the slider (and with no
/// script, ever).
///
/// The minimum is the `min` attribute, else 0; the maximum the `max` attribute, else 100, raised to the
/// minimum when below it. The step is the `step` attribute when above 0, else 1, counted from the step
/// base: the `min` attribute, else the `value` attribute, else 0 (§4.10.5.3.8, "step base").
enum RangeValue {
    /// The value of a range input without a `value`: "the minimum plus half the difference between the
    /// minimum and the maximum, unless the maximum is less than the minimum, in which case the default
    /// value is the minimum", then snapped to the step as `sanitized` does.
    static func defaultText(min: FormValue?, max: FormValue?, step: FormValue?) -> String {
        let bounds = Bounds(min: min, max: max, step: step, value: nil)
        return "\(bounds.sanitized(bounds.minimum + (bounds.maximum - bounds.minimum) / 2))"
    }

    /// What a range input whose `value` attribute is `text` holds: the value sanitization algorithm.
    /// "When the element is suffering from an underflow, the user agent must set the element's value
    /// to … the minimum"; from an overflow, to the maximum; "when the element is suffering from a step
    /// mismatch, the user agent must round the element's value to the nearest number for which the
    /// element would not suffer from a step mismatch, and which is greater than or equal to the minimum,
    /// and … less than or equal to the maximum, if there is a number that matches these constraints. If
    /// two numbers match these constraints, then user agents must use the one nearest to positive
    /// infinity." Nil when `text` is no number (the page shows it in a text input instead).
    static func sanitizedText(_ text: String, min: FormValue?, max: FormValue?, step: FormValue?) -> String? {
        // HTML's notation only (a browser would take anything else for no value); beyond what a decimal
        // holds (`1e400`), left as written.
        guard NumberSyntax.isFloatingPoint(text), let value = Decimal(string: text, locale: Self.posix) else {
            return nil
        }
        return "\(Bounds(min: min, max: max, step: step, value: value).sanitized(value))"
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// A range input's minimum, maximum, step and step base.
    private struct Bounds {
        let minimum: Decimal
        let maximum: Decimal
        let step: Decimal
        let base: Decimal

        init(min: FormValue?, max: FormValue?, step: FormValue?, value: Decimal?) {
            minimum = Self.number(min) ?? 0
            maximum = Swift.max(Self.number(max) ?? 100, minimum)
            // "If … parsing … results in an error, or zero, or a number less than zero": the default step.
            self.step = Self.number(step).flatMap { $0 > 0 ? $0 : nil } ?? 1
            base = Self.number(min) ?? value ?? 0
        }

        /// `value` clamped to the minimum and maximum, then snapped to the nearest step within them.
        func sanitized(_ value: Decimal) -> Decimal {
            let clamped = Swift.min(Swift.max(value, minimum), maximum)
            let rounded = base + Self.nearestWhole((clamped - base) / step) * step
            // The nearest step may lie past a bound: the next one inward, unless the step is wider than
            // the range, when no step fits and the clamped value stays.
            let snapped = rounded > maximum ? rounded - step : rounded < minimum ? rounded + step : rounded
            return snapped < minimum || snapped > maximum ? clamped : snapped
        }

        /// The whole number nearest `quotient`, the one nearer positive infinity on a tie.
        private static func nearestWhole(_ quotient: Decimal) -> Decimal {
            var shifted = quotient + Decimal(string: "0.5")!
            var floor = Decimal()
            NSDecimalRound(&floor, &shifted, 0, .down)
            // `.down` rounds toward zero on some platforms: a negative non-whole number needs one less.
            if floor > shifted { floor -= 1 }
            return floor
        }

        private static func number(_ value: FormValue?) -> Decimal? {
            switch value {
            case .integer(let number): Decimal(number)
            case .decimal(let number): number
            default: nil
            }
        }
    }
}
