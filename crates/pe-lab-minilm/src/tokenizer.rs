//! BERT's uncased WordPiece tokenizer, as Hugging Face's tokenizer.json defines it.
//!
//! Written here rather than taken from Hugging Face's `tokenizers` crate: that crate's default
//! build pulls in regex engines, threads (rayon) and a file-reading model hub, and the page needs
//! only the four small steps below, in a wasm module that takes the file as bytes. Each step
//! follows the crate's source (tokenizers 0.23: `normalizers/bert.rs`,
//! `pre_tokenizers/bert.rs`, `models/wordpiece`, `added_vocabulary.rs`,
//! `processors/template.rs`), and the tests compare the result with Hugging Face's on a corpus.
//!
//! 1. Added tokens (`[CLS]`, `[MASK]`, …) written in the text are cut out first, as they are
//!    written (case included), and become single tokens.
//! 2. BertNormalizer: drop control characters, turn every whitespace into a space, put spaces
//!    around CJK ideographs, strip accents (NFD, then drop the non-spacing marks), lowercase.
//! 3. BertPreTokenizer: split on whitespace, and around every punctuation character.
//! 4. WordPiece: greedy longest match from the start of each word, continuing pieces prefixed
//!    with `##`; a word with an unmatched rest, or longer than the limit, is `[UNK]`.
//! 5. The template's special tokens around the sequence: `[CLS] … [SEP]`.
//!
//! tokenizer.json also holds sentence-transformers' encode settings (truncation to 128 tokens,
//! padding to 128): they are not applied here, as transformers does not apply them to a call
//! without truncation or padding; the model's own limit is its position table (512).

use std::collections::HashMap;

use serde::Deserialize;
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

use crate::MiniLmError;

/// The tokens of one text and their ids, `[CLS]` and `[SEP]` included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoding {
    pub tokens: Vec<String>,
    pub ids: Vec<u32>,
}

/// A token that the text may contain as it is (a special token such as `[MASK]`).
#[derive(Debug, Clone)]
struct AddedToken {
    content: String,
    id: u32,
}

/// One piece of the single-sequence template: a special token, or the text's tokens.
#[derive(Debug, Clone)]
enum TemplatePiece {
    Special(Vec<(String, u32)>),
    Sequence,
}

/// BertNormalizer's switches, as tokenizer.json sets them.
#[derive(Debug, Clone, Copy)]
struct NormalizerSettings {
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
}

/// The tokenizer of a BERT model's tokenizer.json: vocabulary, special tokens and settings.
#[derive(Debug, Clone)]
pub struct WordPieceTokenizer {
    ids_by_piece: HashMap<String, u32>,
    vocab_size: usize,
    unknown_token: String,
    unknown_id: u32,
    continuing_prefix: String,
    max_chars_per_word: usize,
    normalizer: Option<NormalizerSettings>,
    added_tokens: Vec<AddedToken>,
    template: Vec<TemplatePiece>,
}

// tokenizer.json, as far as this tokenizer reads it. Unknown fields are ignored (the file has
// more: version, truncation, padding, decoder).
#[derive(Deserialize)]
struct TokenizerFile {
    #[serde(default)]
    added_tokens: Vec<AddedTokenEntry>,
    normalizer: Option<NormalizerEntry>,
    pre_tokenizer: Option<TypedEntry>,
    post_processor: Option<PostProcessorEntry>,
    model: ModelEntry,
}

#[derive(Deserialize)]
struct AddedTokenEntry {
    id: u32,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
    #[serde(default)]
    normalized: bool,
}

#[derive(Deserialize)]
struct TypedEntry {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct NormalizerEntry {
    #[serde(rename = "type")]
    kind: String,
    clean_text: Option<bool>,
    handle_chinese_chars: Option<bool>,
    strip_accents: Option<bool>,
    lowercase: Option<bool>,
}

#[derive(Deserialize)]
struct PostProcessorEntry {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    single: Vec<TemplatePieceEntry>,
    #[serde(default)]
    special_tokens: HashMap<String, SpecialTokenEntry>,
}

#[derive(Deserialize)]
enum TemplatePieceEntry {
    SpecialToken { id: String },
    Sequence { id: String },
}

#[derive(Deserialize)]
struct SpecialTokenEntry {
    ids: Vec<u32>,
    tokens: Vec<String>,
}

#[derive(Deserialize)]
struct ModelEntry {
    #[serde(rename = "type")]
    kind: String,
    vocab: HashMap<String, u32>,
    unk_token: String,
    #[serde(default = "default_continuing_prefix")]
    continuing_subword_prefix: String,
    #[serde(default = "default_max_chars_per_word")]
    max_input_chars_per_word: usize,
}

fn default_continuing_prefix() -> String {
    "##".to_owned()
}

// Hugging Face's WordPiece default.
fn default_max_chars_per_word() -> usize {
    100
}

impl WordPieceTokenizer {
    /// Reads a BERT tokenizer from the bytes of its tokenizer.json.
    pub fn from_tokenizer_json(bytes: &[u8]) -> Result<Self, MiniLmError> {
        let file: TokenizerFile =
            serde_json::from_slice(bytes).map_err(MiniLmError::TokenizerJson)?;
        let unsupported = |what: String| Err(MiniLmError::UnsupportedTokenizer(what));

        if file.model.kind != "WordPiece" {
            return unsupported(format!("model type `{}`, not WordPiece", file.model.kind));
        }
        let normalizer = match file.normalizer {
            None => None,
            Some(entry) if entry.kind == "BertNormalizer" => {
                // Hugging Face's defaults; strip_accents follows lowercase when it is null.
                let lowercase = entry.lowercase.unwrap_or(true);
                Some(NormalizerSettings {
                    clean_text: entry.clean_text.unwrap_or(true),
                    handle_chinese_chars: entry.handle_chinese_chars.unwrap_or(true),
                    strip_accents: entry.strip_accents.unwrap_or(lowercase),
                    lowercase,
                })
            }
            Some(entry) => return unsupported(format!("normalizer `{}`", entry.kind)),
        };
        match file.pre_tokenizer {
            Some(entry) if entry.kind == "BertPreTokenizer" => {}
            Some(entry) => return unsupported(format!("pre-tokenizer `{}`", entry.kind)),
            None => return unsupported("no pre-tokenizer".to_owned()),
        }

        let vocab = file.model.vocab;
        let vocab_size = vocab.len();
        if vocab_size == 0 {
            return Err(MiniLmError::InvalidVocabulary("it is empty".to_owned()));
        }
        // Ids must name each piece once and fit the embedding table's rows 0..size.
        let mut seen = vec![false; vocab_size];
        for (piece, &id) in &vocab {
            let Some(slot) = seen.get_mut(id as usize) else {
                return Err(MiniLmError::InvalidVocabulary(format!(
                    "`{piece}` has id {id}, outside 0..{vocab_size}"
                )));
            };
            if *slot {
                return Err(MiniLmError::InvalidVocabulary(format!(
                    "id {id} is given to more than one piece"
                )));
            }
            *slot = true;
        }
        let Some(&unknown_id) = vocab.get(&file.model.unk_token) else {
            return Err(MiniLmError::InvalidVocabulary(format!(
                "the unknown token `{}` is not in it",
                file.model.unk_token
            )));
        };

        let mut added_tokens = Vec::with_capacity(file.added_tokens.len());
        for entry in file.added_tokens {
            // Every BERT tokenizer.json has only special tokens matched as written; the other
            // matching modes (after normalization, whole words, eating spaces) are not needed.
            if entry.normalized || entry.single_word || entry.lstrip || entry.rstrip {
                return unsupported(format!(
                    "added token `{}` with normalized, single_word, lstrip or rstrip set",
                    entry.content
                ));
            }
            if entry.content.is_empty() {
                return unsupported("an empty added token".to_owned());
            }
            if entry.id as usize >= vocab_size {
                return Err(MiniLmError::InvalidVocabulary(format!(
                    "added token `{}` has id {}, outside 0..{vocab_size}",
                    entry.content, entry.id
                )));
            }
            added_tokens.push(AddedToken {
                content: entry.content,
                id: entry.id,
            });
        }

        let template = match file.post_processor {
            None => vec![TemplatePiece::Sequence],
            Some(entry) if entry.kind == "TemplateProcessing" => {
                read_template(entry.single, &entry.special_tokens, vocab_size)?
            }
            Some(entry) => return unsupported(format!("post-processor `{}`", entry.kind)),
        };

        Ok(Self {
            ids_by_piece: vocab,
            vocab_size,
            unknown_token: file.model.unk_token,
            unknown_id,
            continuing_prefix: file.model.continuing_subword_prefix,
            max_chars_per_word: file.model.max_input_chars_per_word,
            normalizer,
            added_tokens,
            template,
        })
    }

    /// How many pieces the vocabulary has (the embedding table's rows).
    pub fn vocab_size(&self) -> usize {
        self.vocab_size
    }

    /// The id of a piece of the vocabulary, if it is one.
    pub fn id_of(&self, piece: &str) -> Option<u32> {
        self.ids_by_piece.get(piece).copied()
    }

    /// Tokenizes one text, with the template's special tokens (`[CLS] … [SEP]`).
    pub fn encode(&self, text: &str) -> Encoding {
        let mut sequence = Encoding {
            tokens: Vec::new(),
            ids: Vec::new(),
        };
        for segment in self.split_on_added_tokens(text) {
            match segment {
                Segment::Added(token) => {
                    sequence.tokens.push(token.content.clone());
                    sequence.ids.push(token.id);
                }
                Segment::Text(part) => {
                    let normalized = match self.normalizer {
                        Some(settings) => normalize(part, settings),
                        None => part.to_owned(),
                    };
                    for word in pre_tokenize(&normalized) {
                        self.word_pieces(word, &mut sequence);
                    }
                }
            }
        }

        let mut encoding = Encoding {
            tokens: Vec::with_capacity(sequence.tokens.len() + 2),
            ids: Vec::with_capacity(sequence.ids.len() + 2),
        };
        for piece in &self.template {
            match piece {
                TemplatePiece::Special(tokens) => {
                    for (token, id) in tokens {
                        encoding.tokens.push(token.clone());
                        encoding.ids.push(*id);
                    }
                }
                TemplatePiece::Sequence => {
                    encoding.tokens.extend(sequence.tokens.iter().cloned());
                    encoding.ids.extend(sequence.ids.iter().copied());
                }
            }
        }
        encoding
    }

    /// Cuts the added tokens out of the raw text, leftmost first and, of those starting at the
    /// same place, the longest (Hugging Face's Aho-Corasick with `LeftmostLongest`).
    fn split_on_added_tokens<'a>(&'a self, text: &'a str) -> Vec<Segment<'a>> {
        let mut segments = Vec::new();
        let mut text_start = 0;
        let mut position = 0;
        while position < text.len() {
            let rest = &text[position..];
            let longest = self
                .added_tokens
                .iter()
                .filter(|token| rest.starts_with(token.content.as_str()))
                .max_by_key(|token| token.content.len());
            match longest {
                Some(token) => {
                    if text_start < position {
                        segments.push(Segment::Text(&text[text_start..position]));
                    }
                    segments.push(Segment::Added(token));
                    position += token.content.len();
                    text_start = position;
                }
                None => position += rest.chars().next().map_or(1, char::len_utf8),
            }
        }
        if text_start < text.len() {
            segments.push(Segment::Text(&text[text_start..]));
        }
        segments
    }

    /// WordPiece on one word: the longest piece of the vocabulary from the start, then the
    /// longest `##` piece from where it ended, and so on; if some rest matches nothing, or the
    /// word is longer than the limit (in characters), the whole word is the unknown token.
    fn word_pieces(&self, word: &str, into: &mut Encoding) {
        let unknown = |into: &mut Encoding| {
            into.tokens.push(self.unknown_token.clone());
            into.ids.push(self.unknown_id);
        };
        if word.chars().count() > self.max_chars_per_word {
            unknown(into);
            return;
        }
        let mut pieces: Vec<(String, u32)> = Vec::new();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                let piece = if start > 0 {
                    format!("{}{}", self.continuing_prefix, &word[start..end])
                } else {
                    word[start..end].to_owned()
                };
                if let Some(&id) = self.ids_by_piece.get(&piece) {
                    found = Some((piece, id));
                    break;
                }
                end -= word[start..end]
                    .chars()
                    .next_back()
                    .map_or(1, char::len_utf8);
            }
            match found {
                Some(piece) => {
                    pieces.push(piece);
                    start = end;
                }
                None => {
                    unknown(into);
                    return;
                }
            }
        }
        for (piece, id) in pieces {
            into.tokens.push(piece);
            into.ids.push(id);
        }
    }
}

/// A stretch of the raw text: an added token found in it, or text to normalize and split.
enum Segment<'a> {
    Added(&'a AddedToken),
    Text(&'a str),
}

fn read_template(
    single: Vec<TemplatePieceEntry>,
    special_tokens: &HashMap<String, SpecialTokenEntry>,
    vocab_size: usize,
) -> Result<Vec<TemplatePiece>, MiniLmError> {
    let mut template = Vec::with_capacity(single.len());
    let mut sequences = 0;
    for piece in single {
        match piece {
            TemplatePieceEntry::Sequence { id } => {
                if id != "A" {
                    return Err(MiniLmError::UnsupportedTokenizer(format!(
                        "the single template uses sequence `{id}`"
                    )));
                }
                sequences += 1;
                template.push(TemplatePiece::Sequence);
            }
            TemplatePieceEntry::SpecialToken { id } => {
                let Some(entry) = special_tokens.get(&id) else {
                    return Err(MiniLmError::InvalidVocabulary(format!(
                        "the template's special token `{id}` is not among its special tokens"
                    )));
                };
                if entry.ids.len() != entry.tokens.len() {
                    return Err(MiniLmError::InvalidVocabulary(format!(
                        "the special token `{id}` has {} ids for {} tokens",
                        entry.ids.len(),
                        entry.tokens.len()
                    )));
                }
                if let Some(&bad) = entry.ids.iter().find(|&&id| id as usize >= vocab_size) {
                    return Err(MiniLmError::InvalidVocabulary(format!(
                        "the special token `{id}` has id {bad}, outside 0..{vocab_size}"
                    )));
                }
                let tokens = entry.tokens.iter().cloned().zip(entry.ids.iter().copied());
                template.push(TemplatePiece::Special(tokens.collect()));
            }
        }
    }
    if sequences != 1 {
        return Err(MiniLmError::UnsupportedTokenizer(format!(
            "the single template has {sequences} sequences, not one"
        )));
    }
    Ok(template)
}

/// BertNormalizer, in Hugging Face's order: clean, space out CJK, strip accents, lowercase.
fn normalize(text: &str, settings: NormalizerSettings) -> String {
    let mut normalized = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        if settings.clean_text {
            if c == '\0' || c == '\u{fffd}' || is_control(c) {
                continue;
            }
            if is_whitespace(c) {
                normalized.push(' ');
                continue;
            }
        }
        if settings.handle_chinese_chars && is_chinese_char(c) {
            normalized.push(' ');
            normalized.push(c);
            normalized.push(' ');
        } else {
            normalized.push(c);
        }
    }
    if settings.strip_accents {
        normalized = normalized
            .nfd()
            .filter(|c| !c.is_mark_nonspacing())
            .collect();
    }
    if settings.lowercase {
        // Character by character, as Hugging Face does: `str::to_lowercase` would give a final
        // sigma (ς) at the end of a word where the tokenizer gives σ.
        normalized = normalized.chars().flat_map(char::to_lowercase).collect();
    }
    normalized
}

/// BertPreTokenizer: words split on whitespace (dropped), then around each punctuation
/// character (kept as a word of its own).
fn pre_tokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for chunk in text.split(char::is_whitespace) {
        let mut word_start = 0;
        for (offset, c) in chunk.char_indices() {
            if is_punctuation(c) {
                if word_start < offset {
                    words.push(&chunk[word_start..offset]);
                }
                let end = offset + c.len_utf8();
                words.push(&chunk[offset..end]);
                word_start = end;
            }
        }
        if word_start < chunk.len() {
            words.push(&chunk[word_start..]);
        }
    }
    words
}

/// Whitespace as BERT's normalizer counts it: tab, newline and carriage return (control
/// characters by category) and every character with Unicode's White_Space property.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Control characters as BERT's normalizer drops them: the categories Cc, Cf and Co of the
/// tokenizer's Unicode tables, less tab, newline and carriage return (whitespace to it).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// Punctuation as BERT's pre-tokenizer splits on it: every ASCII symbol (`$`, `+`, `^`, … are
/// not Unicode punctuation but BERT splits on them) and the Unicode categories P*.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK Unified Ideographs blocks (and their compatibility blocks), which BERT tokenizes one
/// character at a time. Hangul, kana and other scripts written with spaces are not among them.
fn is_chinese_char(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
pub(crate) mod tests;
