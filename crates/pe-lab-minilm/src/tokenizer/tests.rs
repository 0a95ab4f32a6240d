use super::*;

/// A tokenizer.json of BERT's shape with a vocabulary of a few pieces.
pub(crate) fn small_tokenizer_json(vocab: &[&str]) -> String {
    let vocab: serde_json::Map<String, serde_json::Value> = vocab
        .iter()
        .enumerate()
        .map(|(id, piece)| ((*piece).to_owned(), serde_json::Value::from(id)))
        .collect();
    serde_json::json!({
        "added_tokens": [
            {"id": 0, "content": "[PAD]", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 1, "content": "[UNK]", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 2, "content": "[CLS]", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 3, "content": "[SEP]", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
            {"id": 4, "content": "[MASK]", "single_word": false, "lstrip": false,
             "rstrip": false, "normalized": false, "special": true},
        ],
        "normalizer": {"type": "BertNormalizer", "clean_text": true,
                       "handle_chinese_chars": true, "strip_accents": null,
                       "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]},
            },
        },
        "model": {"type": "WordPiece", "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##", "max_input_chars_per_word": 12,
                  "vocab": vocab},
    })
    .to_string()
}

pub(crate) const SMALL_VOCAB: &[&str] = &[
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cafe", "un", "##aff", "##able", "!", ",",
    "$", "[", "]", "中", "文", "σ", "##σ", "##ς", "a", "##a",
];

fn small_tokenizer() -> WordPieceTokenizer {
    let json = small_tokenizer_json(SMALL_VOCAB);
    match WordPieceTokenizer::from_tokenizer_json(json.as_bytes()) {
        Ok(tokenizer) => tokenizer,
        Err(error) => panic!("the small tokenizer.json is rejected: {error}"),
    }
}

fn tokens(text: &str) -> Vec<String> {
    small_tokenizer().encode(text).tokens
}

#[test]
fn wraps_in_cls_and_sep_and_splits_on_punctuation() {
    assert_eq!(
        tokens("The CAFÉ, unaffable!"),
        ["[CLS]", "the", "cafe", ",", "un", "##aff", "##able", "!", "[SEP]"]
    );
    assert_eq!(small_tokenizer().encode("").ids, [2, 3]);
}

#[test]
fn unknown_rest_makes_the_whole_word_unknown() {
    // "unaffablex": "un", "##aff", "##able" match, "##x" does not.
    assert_eq!(tokens("unaffablex the"), ["[CLS]", "[UNK]", "the", "[SEP]"]);
}

#[test]
fn words_longer_than_the_limit_are_unknown() {
    assert_eq!(tokens(&"a".repeat(12)).len(), 2 + 12);
    assert_eq!(tokens(&"a".repeat(13)), ["[CLS]", "[UNK]", "[SEP]"]);
}

#[test]
fn cjk_ideographs_are_words_of_their_own() {
    assert_eq!(tokens("中文"), ["[CLS]", "中", "文", "[SEP]"]);
}

#[test]
fn ascii_symbols_split_like_punctuation() {
    assert_eq!(tokens("the$the"), ["[CLS]", "the", "$", "the", "[SEP]"]);
}

#[test]
fn control_characters_are_dropped_and_whitespace_splits() {
    assert_eq!(
        tokens("th\u{7}e\u{200b}\u{fffd}\tthe\u{a0}the"),
        ["[CLS]", "the", "the", "the", "[SEP]"]
    );
}

#[test]
fn capital_sigma_lowercases_without_final_form() {
    // Σ at the end of a word is σ character by character (ς only with context).
    assert_eq!(tokens("ΣΣ"), ["[CLS]", "σ", "##σ", "[SEP]"]);
}

#[test]
fn special_tokens_are_cut_out_as_written() {
    assert_eq!(
        tokens("the[MASK]the [mask]"),
        ["[CLS]", "the", "[MASK]", "the", "[", "[UNK]", "]", "[SEP]"]
    );
}

#[test]
fn bad_files_are_typed_errors() {
    let not_json = WordPieceTokenizer::from_tokenizer_json(b"{");
    assert!(matches!(not_json, Err(MiniLmError::TokenizerJson(_))));

    let no_unknown = small_tokenizer_json(&["[PAD]", "the"]);
    let no_unknown = WordPieceTokenizer::from_tokenizer_json(no_unknown.as_bytes());
    assert!(matches!(no_unknown, Err(MiniLmError::InvalidVocabulary(_))));

    let bpe = small_tokenizer_json(SMALL_VOCAB).replace("\"WordPiece\"", "\"BPE\"");
    let bpe = WordPieceTokenizer::from_tokenizer_json(bpe.as_bytes());
    assert!(matches!(bpe, Err(MiniLmError::UnsupportedTokenizer(_))));

    let mut sparse: serde_json::Value =
        match serde_json::from_str(&small_tokenizer_json(SMALL_VOCAB)) {
            Ok(value) => value,
            Err(error) => panic!("{error}"),
        };
    sparse["model"]["vocab"]["the"] = serde_json::Value::from(1000);
    let sparse = WordPieceTokenizer::from_tokenizer_json(sparse.to_string().as_bytes());
    assert!(matches!(sparse, Err(MiniLmError::InvalidVocabulary(_))));
}
