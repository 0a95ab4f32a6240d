//! Reading a decimal number typed by a person (a link's value, a number field), the same on
//! every platform.
//!
//! Natively this is Rust's own `str::parse::<f64>`. In the page it is the browser's `Number()`
//! after the same syntax check: Rust's parser carries a 21 KB table of powers of five (the
//! Eisel–Lemire algorithm), 14 KB of the page's gzip, only to read a handful of slider values,
//! while the browser's parser is already there and, like Rust's, rounds correctly. The syntax
//! check makes the two accept exactly the same strings: an optional sign, digits with at most
//! one decimal point (at least one digit in all), and an optional exponent (`e` or `E`, an
//! optional sign, digits). Rust's `inf` and `NaN` are refused: no value of the page may be
//! infinite, and the callers refuse non-finite values anyway.

/// The number `text` (without surrounding spaces) writes, when it is a finite decimal.
pub fn parse_decimal(text: &str) -> Option<f64> {
    if !is_decimal(text) {
        return None;
    }
    let value = platform_parse(text)?;
    value.is_finite().then_some(value)
}

#[cfg(not(target_arch = "wasm32"))]
fn platform_parse(text: &str) -> Option<f64> {
    text.parse::<f64>().ok()
}

#[cfg(target_arch = "wasm32")]
fn platform_parse(text: &str) -> Option<f64> {
    let value = js_sys::Number::from(wasm_bindgen::JsValue::from_str(text)).value_of();
    (!value.is_nan()).then_some(value)
}

/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, nothing else.
fn is_decimal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    let mut mantissa_digits = digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        mantissa_digits += digits(&mut at);
    }
    if mantissa_digits == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// Every string of up to `length` characters over `alphabet`, the empty one first: the strings
/// the syntax check is compared on against Rust's parser, natively and in the browser.
pub fn every_string_up_to(alphabet: &[char], length: usize) -> Vec<String> {
    let mut texts = vec![String::new()];
    let mut last = texts.clone();
    for _ in 0..length {
        last = last
            .iter()
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(last.iter().cloned());
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_rust_reads() {
        for text in [
            "0",
            "-0",
            "+7",
            "10000",
            "0.003",
            ".5",
            "5.",
            "1e5",
            "1E-7",
            "2.5e+3",
            "-12.75",
            "0.1",
            "1.7976931348623157e308",
            "5e-324",
            "123456789012345678901234567890",
            "0.30000000000000004",
            "4.9406564584124654e-324",
        ] {
            let expected: f64 = text.parse().unwrap();
            assert_eq!(
                parse_decimal(text).map(f64::to_bits),
                Some(expected.to_bits()),
                "{text}"
            );
        }
    }

    #[test]
    fn refuses_what_is_not_a_finite_decimal() {
        for text in [
            "", " 1", "1 ", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "1e5x", "0x10", "inf",
            "-inf", "infinity", "NaN", "1_000", "١", "1e400", "--1", "+-1", "1,5",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_syntax_is_rusts_less_inf_and_nan() {
        // Every string over a small alphabet up to four characters: accepted here exactly
        // when Rust's parser accepts it with a finite value.
        let texts = every_string_up_to(&['1', '0', '.', 'e', '+', '-', 'E'], 4);
        for text in &texts {
            let rust = text.parse::<f64>().ok().filter(|v| v.is_finite());
            assert_eq!(
                parse_decimal(text).map(f64::to_bits),
                rust.map(f64::to_bits),
                "{text:?}"
            );
        }
    }
}
