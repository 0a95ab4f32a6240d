//! Where a sentence's numbers must not be split across lines. Browsers may break a line after the
//! hyphen of an exponent ("1.2e-" / "7"); the page sets each such number in a span that does not
//! wrap. Pure, tested natively; `web::dom::text` applies it. One small scanner rather than the
//! `regex` crate: a regex engine in the page for one pattern would add to a first load that is
//! over its budget.

/// The text cut into runs: `(run, keep_whole)`. A run to keep whole is a number written with an
/// exponent (1.2e-7, −3.50e+2, 4e5); concatenated, the runs are the text unchanged.
pub fn number_runs(text: &str) -> Vec<(&str, bool)> {
    let mut runs = Vec::new();
    let mut rest_start = 0;
    for (start, end) in exponent_numbers(text) {
        if start > rest_start {
            runs.push((&text[rest_start..start], false));
        }
        runs.push((&text[start..end], true));
        rest_start = end;
    }
    if rest_start < text.len() || runs.is_empty() {
        runs.push((&text[rest_start..], false));
    }
    runs
}

/// Byte ranges of the numbers with an exponent: a sign (‑ or −) and digits with at most one
/// point, then e, an optional sign and digits. A mantissa must start at a word's edge (after a
/// space, a bracket or the text's start) so that names like "f32e-3" are left alone.
fn exponent_numbers(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |k: usize| chars.get(k).map_or(text.len(), |c| c.0);
    let mut found = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let edge = k == 0 || !chars[k - 1].1.is_alphanumeric() && chars[k - 1].1 != '.';
        let mut m = k;
        if matches!(chars[m].1, '-' | '−') {
            m += 1;
        }
        let digits_start = m;
        while m < chars.len() && (chars[m].1.is_ascii_digit() || chars[m].1 == '.') {
            m += 1;
        }
        let mantissa = &text[byte_at(digits_start)..byte_at(m)];
        let is_mantissa = !mantissa.is_empty()
            && mantissa.starts_with(|c: char| c.is_ascii_digit())
            && mantissa.matches('.').count() <= 1;
        if edge && is_mantissa && m < chars.len() && chars[m].1 == 'e' {
            let mut e = m + 1;
            if e < chars.len() && matches!(chars[e].1, '-' | '+' | '−') {
                e += 1;
            }
            let exponent_start = e;
            while e < chars.len() && chars[e].1.is_ascii_digit() {
                e += 1;
            }
            let word_ends = e == chars.len() || !chars[e].1.is_alphanumeric();
            if e > exponent_start && word_ends {
                found.push((byte_at(k), byte_at(e)));
                k = e;
                continue;
            }
        }
        k = if m > k { m } else { k + 1 };
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_numbers_are_kept_whole_and_the_text_is_unchanged() {
        let text =
            "the curves differ by 3.7e-7); scores up to 1.614, r_8 = 7.11e-16, 4e5 and −2.0e+3.";
        let runs = number_runs(text);
        let whole: Vec<&str> = runs.iter().filter(|r| r.1).map(|r| r.0).collect();
        assert_eq!(whole, ["3.7e-7", "7.11e-16", "4e5", "−2.0e+3"]);
        assert_eq!(runs.iter().map(|r| r.0).collect::<String>(), text);
    }

    #[test]
    fn words_with_an_e_are_not_numbers() {
        for text in [
            "see e-mail",
            "f32e-3",
            "1.2.3e-4",
            "2e-",
            "1e-3x",
            "the end",
            "",
        ] {
            assert!(number_runs(text).iter().all(|r| !r.1), "{text}");
            assert_eq!(
                number_runs(text).iter().map(|r| r.0).collect::<String>(),
                text
            );
        }
        assert_eq!(
            number_runs("(1e-3)"),
            [("(", false), ("1e-3", true), (")", false)]
        );
    }
}
