//! What the takeaway tests measure of a sentence (test code only): its words, as the page's reading
//! test counts them, and its numbers, which must be the same in every language; and a sentence cut
//! into the tokens the attention panels take (at single spaces).

/// Words as the page's reading test counts them: runs with a letter or a digit.
pub fn words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// The numbers of a sentence (runs of digits and decimal points), sorted: the same in every
/// language, whatever its word order.
pub fn numbers(text: &str) -> Vec<String> {
    let mut sorted: Vec<String> = text
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .map(|run| run.trim_matches('.'))
        .filter(|run| !run.is_empty())
        .map(str::to_string)
        .collect();
    sorted.sort();
    sorted
}

/// A sentence's tokens, cut at single spaces (the attention panels' test sentences).
pub fn tokens_of(text: &str) -> Vec<String> {
    text.split(' ').map(String::from).collect()
}
