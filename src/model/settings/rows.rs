//! What a table of rows ([`Setting`]) does as a whole: finds the row of a name, puts an
//! update's pairs in the order they are read, writes a link's pairs and lists the keys. Every
//! table of link keys (the parameters', the panel settings', the training panel's, the view's)
//! is read and written through these.

#[cfg(not(target_arch = "wasm32"))]
use super::row::{Bound, Value};
use super::row::{ReadOrder, Setting};

/// The row of `name` (a key or a long name) in `rows`.
pub fn row_named<S>(rows: &'static [Setting<S>], name: &str) -> Option<&'static Setting<S>> {
    rows.iter().find(|row| row.is_named(name))
}

/// The row whose key is `key` (long names not accepted: a link's keys are short).
pub fn row_keyed<S>(rows: &'static [Setting<S>], key: &str) -> Option<&'static Setting<S>> {
    rows.iter().find(|row| row.key == key)
}

/// The pairs of an update that `rows` name, with their rows, in the order they are read:
/// [`ReadOrder::First`] ones, then the rest as they come, then [`ReadOrder::AfterSentence`]
/// ones. The names no row has are returned apart.
pub fn in_read_order<'a, S>(
    rows: &'static [Setting<S>],
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> (Vec<(&'static Setting<S>, &'a str)>, Vec<&'a str>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for (name, value) in pairs {
        match row_named(rows, name) {
            Some(row) => known.push((row, value)),
            None => unknown.push(name),
        }
    }
    // Each group in the link's order (three passes: no sort to carry per table).
    let ordered = [
        ReadOrder::First,
        ReadOrder::InTurn,
        ReadOrder::AfterSentence,
    ]
    .iter()
    .flat_map(|order| known.iter().filter(move |(row, _)| row.order == *order))
    .copied()
    .collect();
    (ordered, unknown)
}

/// The pairs a link carries for `settings`, in the rows' order (`defaults`: what a link leaves
/// out). Values are raw text, to be URL-encoded by the caller.
pub fn written_pairs<S>(
    rows: &'static [Setting<S>],
    settings: &S,
    defaults: &S,
) -> Vec<(&'static str, String)> {
    rows.iter()
        .filter_map(|row| row.pair(settings, defaults))
        .collect()
}

/// How many rows `parts` hold together (the length of [`joined`]'s table).
pub const fn count<S>(parts: &[&[Setting<S>]]) -> usize {
    let (mut total, mut p) = (0, 0);
    while p < parts.len() {
        total += parts[p].len();
        p += 1;
    }
    total
}

/// The rows of `parts`, one part after the other, as one table (a `const fn`, so that a table
/// written in several files is still one constant; `N` is [`count`] of the parts, and the first
/// part is not empty).
pub const fn joined<S, const N: usize>(parts: &[&[Setting<S>]]) -> [Setting<S>; N] {
    let mut rows = [parts[0][0]; N];
    let (mut at, mut p) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            rows[at] = parts[p][i];
            at += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(at == N, "joined: N is not the parts' count");
    rows
}

/// The keys of `rows`, in their order (for the tables' constants).
pub const fn keys_of<S, const N: usize>(rows: &[Setting<S>; N]) -> [&'static str; N] {
    let mut keys = [""; N];
    let mut i = 0;
    while i < N {
        keys[i] = rows[i].key;
        i += 1;
    }
    keys
}

/// The values a link may give `row`, as the docs' table shows them: a number's range where it
/// is fixed, `1`/`0` for a switch, a menu's names; empty where the range follows the state or
/// the row reads its own text (its doc says what it takes).
#[cfg(not(target_arch = "wasm32"))]
pub fn values_of<S>(row: &Setting<S>) -> String {
    match &row.value {
        Value::Integer {
            min: Bound::Fixed(min),
            max: Bound::Fixed(max),
            ..
        } => format!("{min}–{max}"),
        Value::Decimal { range, .. } => format!("{}–{}", range.min, range.max),
        Value::Switch { .. } => "`1`/`0`".to_string(),
        Value::Name { names, .. } => names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
}

/// The Markdown table of `rows` for docs/links-and-keys.md: a line a key, in the rows' order
/// (the order a link writes them), with its doc and its values.
#[cfg(not(target_arch = "wasm32"))]
pub fn docs_table<S>(rows: &[Setting<S>]) -> String {
    let mut table = String::from("| key | meaning | values |\n| --- | --- | --- |\n");
    for row in rows {
        table += &format!("| `{}` | {} | {} |\n", row.key, row.doc, values_of(row));
    }
    table
}
