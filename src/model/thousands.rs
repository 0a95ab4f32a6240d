//! Whole numbers with their thousands grouped, for sentences and labels: "4,096" in the training
//! verdict, "184 320" (a narrow no-break space) in the complexity panel's counts.

/// `digits` (a whole number's decimal digits) with `separator` between each group of three from
/// the right: ("4096", ',') → "4,096".
pub fn group_thousands(digits: &str, separator: char) -> String {
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(separator);
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group_thousands;

    #[test]
    fn groups_of_three_from_the_right() {
        assert_eq!(group_thousands("7", ','), "7");
        assert_eq!(group_thousands("999", ','), "999");
        assert_eq!(group_thousands("4096", ','), "4,096");
        assert_eq!(group_thousands("184320", '\u{202f}'), "184\u{202f}320");
        assert_eq!(group_thousands("1234567", ','), "1,234,567");
    }
}
