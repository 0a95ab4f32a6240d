//! The part of Project Fluent's syntax that the page's computed sentences use, parsed and
//! formatted at run time: messages and terms whose value is text with placeables — a variable
//! (`{ $seeds }`), a string literal (`{ "{" }`), a message or term reference (`{ -attention }`),
//! and a select expression on a variable whose variants are plural categories, numbers or words
//! (`{ $count -> [one] solves *[other] solve }`). A line break is allowed only inside a
//! placeable, so that no sentence carries Fluent's rules for multiline text; a catalog with
//! anything else is an error here, and `tests/locales.rs` formats every message of every catalog
//! with `fluent-bundle` too and compares.
//!
//! Written here rather than taken from `fluent-bundle` for the page's size: that crate and its
//! locale data cost 48 KB gzip of WebAssembly, where the page's first load has a fixed budget;
//! this subset costs a small fraction of it and formats the same text.

use std::collections::HashMap;
use std::fmt::Write;

/// A catalog's syntax error: the line and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct SyntaxError {
    pub line: usize,
    pub what: &'static str,
}

/// One piece of a pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Variable(String),
    /// A message (`name`) or term (`-name`) reference.
    Reference(String),
    Select {
        variable: String,
        variants: Vec<(Key, Vec<Piece>)>,
        default: usize,
    },
}

/// A variant's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    Number(i64),
    Name(String),
}

/// The value of an argument, borrowed: a call site builds its arguments without owning them, so
/// that the page's many sentences cost no drop code each.
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    /// Text, written as it displays (a `&str`, a `String`, `format_args!`); a select compares it
    /// with its keys.
    Text(&'a dyn std::fmt::Display),
    /// A whole number: written as digits, and selects a plural category.
    Count(i64),
}

impl std::fmt::Debug for Arg<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arg::Text(text) => write!(f, "Text({:?})", text.to_string()),
            Arg::Count(n) => write!(f, "Count({n})"),
        }
    }
}

/// A language's plural categories, for the selects on a count: English has "one" and "other",
/// Chinese only "other" (CLDR's rules, for whole numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plurals {
    OneOther,
    OtherOnly,
}

impl Plurals {
    pub fn of(language: &str) -> Plurals {
        if language.starts_with("zh") {
            Plurals::OtherOnly
        } else {
            Plurals::OneOther
        }
    }

    fn category(self, n: i64) -> &'static str {
        match self {
            Plurals::OneOther if n == 1 => "one",
            _ => "other",
        }
    }
}

/// A catalog: its text and where each message and term (under its leading '-') is in it. A
/// pattern is parsed the first time it is formatted and kept, so that loading the page's catalog
/// is one scan of its lines, not the parse of hundreds of sentences of which a view shows a few,
/// and a sentence written at every frame is parsed once.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    source: std::borrow::Cow<'static, str>,
    /// Each entry's value: its bytes in `source` (after the `=`, through its last continuation
    /// line) and the line it starts on.
    entries: HashMap<String, Place>,
    /// The patterns formatted so far.
    parsed: std::cell::RefCell<HashMap<String, std::rc::Rc<[Piece]>>>,
    plurals: Option<Plurals>,
}

/// References are followed this deep at most (a catalog that refers in a circle stops there).
const MAX_DEPTH: usize = 8;

/// Where an entry's value is: its bytes in the catalog's text, and the line it starts on.
type Place = (std::ops::Range<usize>, usize);

/// Each entry's id and [`Place`]; errors are in the entries' lines themselves (a value's own
/// syntax is [`parse_value`]'s).
fn scan(source: &str) -> Result<Vec<(&str, Place)>, SyntaxError> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in source.split('\n') {
        lines.push((offset, line));
        offset += line.len() + 1;
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let (start, line) = lines[at];
        let number = at + 1;
        at += 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((id, _)) = line.split_once('=') else {
            return Err(SyntaxError {
                line: number,
                what: "expected `id = value`",
            });
        };
        let id = id.trim_end();
        let name = id.strip_prefix('-').unwrap_or(id);
        if !is_identifier(name) || line.starts_with(' ') {
            return Err(SyntaxError {
                line: number,
                what: "an entry starts at the line's start with an identifier",
            });
        }
        let value_start = start + line.find('=').map_or(line.len(), |i| i + 1);
        let mut value_end = start + line.len();
        // Continuation lines are indented; with a line break only inside placeables, they join
        // into one stream whose breaks the placeables' grammar skips.
        while at < lines.len() && lines[at].1.starts_with(' ') && !lines[at].1.trim().is_empty() {
            value_end = lines[at].0 + lines[at].1.len();
            at += 1;
        }
        out.push((id, (value_start..value_end, number)));
    }
    Ok(out)
}

/// The pattern of one entry's value (its text from after the `=`), which starts on `line`.
fn parse_value(value: &str, line: usize) -> Result<Vec<Piece>, SyntaxError> {
    let mut parser = Parser {
        chars: value.trim_end_matches('\r').chars().collect(),
        at: 0,
        line,
    };
    parser.skip_blank_inline();
    let pieces = parser.pattern(false)?;
    if parser.at < parser.chars.len() {
        return Err(parser.error("an unmatched `}` or `]`"));
    }
    if pieces.is_empty() {
        return Err(parser.error("an entry without a value"));
    }
    Ok(pieces)
}

impl Catalog {
    /// `source`, a catalog in `language` (its code, e.g. "en", "zh"), with every entry's syntax
    /// checked.
    pub fn parse(source: &str, language: &str) -> Result<Catalog, SyntaxError> {
        let catalog = Catalog::index(source.to_string().into(), language)?;
        for (range, line) in catalog.entries.values() {
            parse_value(&catalog.source[range.clone()], *line)?;
        }
        Ok(catalog)
    }

    /// `source` with its entries found but their values not parsed: for the English compiled
    /// into the page, whose every entry the tests parse.
    pub fn index(
        source: std::borrow::Cow<'static, str>,
        language: &str,
    ) -> Result<Catalog, SyntaxError> {
        let mut entries = HashMap::new();
        for (id, (range, line)) in scan(&source)? {
            if entries.insert(id.to_string(), (range, line)).is_some() {
                return Err(SyntaxError {
                    line,
                    what: "an id defined twice",
                });
            }
        }
        Ok(Catalog {
            source,
            entries,
            parsed: Default::default(),
            plurals: Some(Plurals::of(language)),
        })
    }

    /// The parsed pattern of message (or term) `id`.
    pub fn pattern(&self, id: &str) -> Option<std::rc::Rc<[Piece]>> {
        if let Some(pieces) = self.parsed.borrow().get(id) {
            return Some(std::rc::Rc::clone(pieces));
        }
        let (range, line) = self.entries.get(id)?;
        let pieces: std::rc::Rc<[Piece]> =
            parse_value(&self.source[range.clone()], *line).ok()?.into();
        self.parsed
            .borrow_mut()
            .insert(id.to_string(), std::rc::Rc::clone(&pieces));
        Some(pieces)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.entries.contains_key(id)
    }

    /// The message ids (not the terms).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.entries
            .keys()
            .map(String::as_str)
            .filter(|id| !id.starts_with('-'))
    }

    /// Message `id` with `args`, or `None` where the catalog lacks it. A missing argument is
    /// written as its name in braces, as Fluent does.
    pub fn format(&self, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        let pieces = self.pattern(id)?;
        let mut out = String::new();
        self.write(&pieces, args, &mut out, 0);
        Some(out)
    }

    fn write(&self, pieces: &[Piece], args: &[(&str, Arg<'_>)], out: &mut String, depth: usize) {
        let arg = |name: &str| args.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        for piece in pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Variable(name) => match arg(name) {
                    Some(Arg::Text(text)) => {
                        let _ = write!(out, "{text}");
                    }
                    Some(Arg::Count(n)) => {
                        let _ = write!(out, "{n}");
                    }
                    None => {
                        out.push_str("{$");
                        out.push_str(name);
                        out.push('}');
                    }
                },
                Piece::Reference(id) => match self.pattern(id) {
                    Some(target) if depth < MAX_DEPTH => self.write(&target, args, out, depth + 1),
                    _ => {
                        out.push('{');
                        out.push_str(id);
                        out.push('}');
                    }
                },
                Piece::Select {
                    variable,
                    variants,
                    default,
                } => {
                    let chosen = self.choose(arg(variable), variants).unwrap_or(*default);
                    self.write(&variants[chosen].1, args, out, depth);
                }
            }
        }
    }

    /// Fluent's order: a number key equal to the count, then its plural category; a name key
    /// equal to the text.
    fn choose(&self, value: Option<&Arg<'_>>, variants: &[(Key, Vec<Piece>)]) -> Option<usize> {
        match value? {
            Arg::Count(n) => variants
                .iter()
                .position(|(key, _)| *key == Key::Number(*n))
                .or_else(|| {
                    let category = self.plurals.unwrap_or(Plurals::OneOther).category(*n);
                    variants
                        .iter()
                        .position(|(key, _)| matches!(key, Key::Name(k) if k == category))
                }),
            Arg::Text(text) => {
                let text = text.to_string();
                variants
                    .iter()
                    .position(|(key, _)| matches!(key, Key::Name(k) if *k == text))
            }
        }
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Parser {
    fn error(&self, what: &'static str) -> SyntaxError {
        let breaks = self.chars[..self.at.min(self.chars.len())]
            .iter()
            .filter(|&&c| c == '\n')
            .count();
        SyntaxError {
            line: self.line + breaks,
            what,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_blank_inline(&mut self) {
        while self.peek() == Some(' ') {
            self.at += 1;
        }
    }

    fn skip_blank(&mut self) {
        while matches!(self.peek(), Some(' ' | '\n')) {
            self.at += 1;
        }
    }

    /// Text and placeables up to the end, or (in a variant) up to the line's end. Trailing
    /// spaces of a pattern are not part of it, as in Fluent.
    fn pattern(&mut self, variant: bool) -> Result<Vec<Piece>, SyntaxError> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        while let Some(c) = self.peek() {
            match c {
                '{' => {
                    self.at += 1;
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(self.placeable()?);
                }
                '\n' if variant => break,
                '\n' => return Err(self.error("a line break outside a placeable")),
                '}' => break,
                _ => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
        let trimmed = text.trim_end_matches(' ');
        if !trimmed.is_empty() {
            pieces.push(Piece::Text(trimmed.to_string()));
        }
        Ok(pieces)
    }

    fn identifier(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        while let Some(c) = self.peek() {
            let ok = if self.at == start {
                c.is_ascii_alphabetic()
            } else {
                c.is_ascii_alphanumeric() || c == '-' || c == '_'
            };
            if !ok {
                break;
            }
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error("expected an identifier"));
        }
        Ok(self.chars[start..self.at].iter().collect())
    }

    fn expect(&mut self, c: char, what: &'static str) -> Result<(), SyntaxError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    /// After '{': a variable, a string literal, a reference, or a select; then '}'.
    fn placeable(&mut self) -> Result<Piece, SyntaxError> {
        self.skip_blank();
        let piece = match self.peek() {
            Some('$') => {
                self.at += 1;
                let variable = self.identifier()?;
                self.skip_blank();
                if self.peek() == Some('-') {
                    self.at += 1;
                    self.expect('>', "expected `->`")?;
                    self.select(variable)?
                } else {
                    Piece::Variable(variable)
                }
            }
            Some('"') => {
                self.at += 1;
                let mut text = String::new();
                loop {
                    match self.peek() {
                        Some('"') => break,
                        Some('\\') => {
                            self.at += 1;
                            match self.peek() {
                                Some(c @ ('"' | '\\')) => text.push(c),
                                _ => return Err(self.error("an escape other than \\\" or \\\\")),
                            }
                        }
                        Some('\n') | None => return Err(self.error("an unclosed string")),
                        Some(c) => text.push(c),
                    }
                    self.at += 1;
                }
                self.at += 1;
                Piece::Text(text)
            }
            Some('-') => {
                self.at += 1;
                Piece::Reference(format!("-{}", self.identifier()?))
            }
            _ => Piece::Reference(self.identifier()?),
        };
        self.skip_blank();
        self.expect('}', "expected `}`")?;
        Ok(piece)
    }

    /// After `$variable ->`: variants, one a line, exactly one marked default with '*'.
    fn select(&mut self, variable: String) -> Result<Piece, SyntaxError> {
        let mut variants = Vec::new();
        let mut default = None;
        loop {
            self.skip_blank();
            let starred = self.peek() == Some('*');
            if starred {
                self.at += 1;
            }
            if self.peek() != Some('[') {
                if starred {
                    return Err(self.error("expected `[` after `*`"));
                }
                break;
            }
            self.at += 1;
            self.skip_blank_inline();
            let key = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                let start = self.at;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                let digits: String = self.chars[start..self.at].iter().collect();
                Key::Number(digits.parse().map_err(|_| self.error("a key too large"))?)
            } else {
                Key::Name(self.identifier()?)
            };
            self.skip_blank_inline();
            self.expect(']', "expected `]`")?;
            self.skip_blank_inline();
            if starred {
                if default.is_some() {
                    return Err(self.error("two default variants"));
                }
                default = Some(variants.len());
            }
            let value = self.pattern(true)?;
            variants.push((key, value));
        }
        let default = default.ok_or_else(|| self.error("a select without a `*` default"))?;
        Ok(Piece::Select {
            variable,
            variants,
            default,
        })
    }
}
