//! The tokenizer against Hugging Face's on every sentence of tests/fixtures/minilm/sentences.txt
//! (punctuation, accents, numbers, capitals, unknown and over-long words, CJK, emoji, control and
//! format characters, special tokens written in the text, sentences of 64+ tokens): the tokens
//! and ids must be identical. Hugging Face's are in the committed fixture
//! (tests/fixtures/minilm/reference.json, written by scripts/minilm_reference.py); the
//! vocabulary is the model's tokenizer.json, fetched by `scripts/fetch-minilm.sh` into
//! target/minilm/. Without it the comparison says so and passes, unless PE_LAB_REQUIRE_MINILM
//! is set.

mod common;

/// The fixture holds the corpus as it is: same sentences, same order, none lost to line ends.
#[test]
fn fixture_holds_every_corpus_sentence() {
    let path = common::fixture_dir().join("sentences.txt");
    let corpus = String::from_utf8(common::read_bytes(&path))
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let Some(corpus) = corpus.strip_suffix('\n') else {
        panic!("{}: the last line must end with a newline", path.display());
    };
    // Split on "\n" only, as the reference script does: a line separator or a vertical tab
    // inside a sentence belongs to it.
    let lines: Vec<&str> = corpus.split('\n').collect();
    let fixture = common::load_fixture();
    let texts: Vec<&str> = fixture.sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(lines, texts);
    assert!(lines.len() >= 300, "only {} sentences", lines.len());
    let long = fixture
        .sentences
        .iter()
        .filter(|s| s.ids.len() >= 64)
        .count();
    assert!(long >= 5, "only {long} sentences of 64+ tokens");
}

#[test]
fn tokens_and_ids_match_hugging_face_on_every_sentence() {
    let Some(paths) = common::required_files(
        "tokenizer against Hugging Face",
        &["tokenizer.json"],
        common::HOW_TO_FETCH,
    ) else {
        return;
    };
    let tokenizer = common::load_tokenizer(&paths[0]);
    let fixture = common::load_fixture();
    let mut disagreements = Vec::new();
    for (index, sentence) in fixture.sentences.iter().enumerate() {
        let encoding = tokenizer.encode(&sentence.text);
        if encoding.tokens != sentence.tokens || encoding.ids != sentence.ids {
            disagreements.push(format!(
                "sentence {index} {:?}:\n  ours {:?}\n  hf   {:?}",
                sentence.text, encoding.tokens, sentence.tokens
            ));
        }
    }
    let total = fixture.sentences.len();
    common::report(&format!(
        "tokenizer: {} of {total} sentences identical to Hugging Face's (tokenizers {})",
        total - disagreements.len(),
        fixture.versions["tokenizers"]
    ));
    assert!(
        disagreements.is_empty(),
        "{} of {total} sentences differ:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
