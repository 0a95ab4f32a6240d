//! The catalogs' argument names (`{ $relative_first }`) and their renaming to short ones: one
//! scanner for build.rs, which compiles the English catalogs in (it includes this file by its
//! path), and for [`super::install_source`], which gives a catalog as written the same form.

/// The length of the argument name at the start of `text` (Fluent's identifier characters).
fn name_length(text: &str) -> usize {
    text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(text.len())
}

/// Every argument name in `line` (each `{ $name`), in order.
pub fn argument_names(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices("{ $")
        .map(move |(at, _)| {
            let rest = &line[at + 3..];
            &rest[..name_length(rest)]
        })
        .filter(|name| !name.is_empty())
}

/// `line` with every `{ $name` written as `rename` writes the name, and without the blanks inside
/// a variable's placeable (`{$a1}`, `{$a2 ->`: Fluent's blanks are optional there).
pub fn rename_arguments(line: &str, rename: impl Fn(&str, &mut String)) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("{ $") {
        out.push_str(&rest[..at]);
        out.push_str("{$");
        rest = &rest[at + 3..];
        let end = name_length(rest);
        rename(&rest[..end], &mut out);
        rest = &rest[end..];
        if let Some(after) = rest.strip_prefix(" }") {
            out.push('}');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
