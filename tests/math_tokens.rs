//! Integration tests of `pe_lab::math::tokens`: tokenization rules, the deterministic embedding
//! against an independent transcription (FNV-1a 64 → splitmix64 → sum of twelve uniforms) and
//! pinned bit patterns, and the attention input X (·√d) + P against the encoding's definition.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use ndarray::Array2;
use pe_lab::math::tokens::{
    attention_input, count_tokens, embed_tokens, embedding, tokenize, try_tokenize,
    DEFAULT_SENTENCE, MAX_EMBEDDING_DIM, MAX_TOKENS,
};
use pe_lab::math::MathError;
use proptest::prelude::*;

/// Independent transcription of the embedding: the published FNV-1a 64 constants, Vigna's
/// splitmix64, twelve uniforms (u + ½)/2³² per component, variance 1/d.
fn reference_embedding(word: &str, d: usize) -> Vec<f64> {
    let mut x: u64 = 0xcbf29ce484222325;
    for byte in word.bytes() {
        x = (x ^ u64::from(byte)).wrapping_mul(0x100000001b3);
    }
    let mut next = move || {
        x = x.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    };
    (0..d)
        .map(|_| {
            let mut sum = 0.0;
            for _ in 0..6 {
                let bits = next();
                sum += ((bits >> 32) as f64 + 0.5) / 4294967296.0;
                sum += ((bits & 0xffff_ffff) as f64 + 0.5) / 4294967296.0;
            }
            (sum - 6.0) / (d as f64).sqrt()
        })
        .collect()
}

/// The encoding's definition in f64, for one entry.
fn reference_encoding(i: usize, column: usize, d: usize, base: f64) -> f64 {
    let angle = i as f64 * base.powf(-((2 * (column / 2)) as f64) / d as f64);
    if column % 2 == 0 {
        angle.sin()
    } else {
        angle.cos()
    }
}

#[test]
fn default_sentence_gives_the_eight_words_of_the_example() {
    assert_eq!(
        tokenize(DEFAULT_SENTENCE),
        ["I", "would", "like", "3", "oranges", "and", "4", "bananas"]
    );
}

#[test]
fn punctuation_is_stripped_at_the_ends_only() {
    assert_eq!(
        tokenize("  \"I would like 3 oranges, and 4 bananas.\"  "),
        ["I", "would", "like", "3", "oranges", "and", "4", "bananas"]
    );
    assert_eq!(
        tokenize("don't (3) e-mail 3.5 ... — x!"),
        ["don't", "3", "e-mail", "3.5", "...", "—", "x"]
    );
    // Case is kept and tabs/newlines separate tokens.
    assert_eq!(tokenize("I\ti\nI"), ["I", "i", "I"]);
}

#[test]
fn empty_and_blank_sentences_give_no_tokens() {
    assert!(tokenize("").is_empty());
    assert!(tokenize(" \t\n ").is_empty());
    assert_eq!(try_tokenize(""), Ok(Vec::new()));
}

#[test]
fn long_sentences_are_capped_and_reported() {
    let sentence = (0..70)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let tokens = tokenize(&sentence);
    assert_eq!(tokens.len(), MAX_TOKENS);
    assert_eq!(tokens[63], "w63");
    assert_eq!(count_tokens(&sentence), 70);
    assert_eq!(
        try_tokenize(&sentence),
        Err(MathError::TooLarge {
            what: "number of tokens",
            requested: 70,
            limit: MAX_TOKENS
        })
    );
    let exactly = (0..MAX_TOKENS)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(try_tokenize(&exactly).map(|t| t.len()), Ok(MAX_TOKENS));
}

#[test]
fn embedding_matches_the_independent_transcription() {
    for word in ["I", "oranges", "3", "", "bananas", "ünïcödé"] {
        for d in [1, 2, 7, 32, 100] {
            let got = embedding(word, d).unwrap();
            let expected = reference_embedding(word, d);
            assert_eq!(got.len(), d);
            for (g, e) in got.iter().zip(&expected) {
                assert!(
                    (f64::from(*g) - e).abs() <= 1e-7 * e.abs().max(1e-3),
                    "{word} d={d}: {g} vs {e}"
                );
            }
        }
    }
}

#[test]
fn embedding_bits_are_pinned() {
    // The exact f32 bit patterns: any change to the hash, the stream or the rounding (which would
    // make the browser and the native build disagree) shows up here.
    let got: Vec<u32> = embedding("oranges", 4)
        .unwrap()
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(got, PINNED_ORANGES_D4);
}

/// embedding("oranges", 4) = [−0.13331272, 0.89919084, 1.0894462, 0.4917039].
const PINNED_ORANGES_D4: [u32; 4] = [0xbe088321, 0x3f66315f, 0x3f8b72f9, 0x3efbc09d];

#[test]
fn embeddings_have_variance_one_over_d() {
    // 500 words at d = 64: ‖x‖² averages 1 (standard error ≈ √(2/64)/√500 ≈ 0.008).
    let d = 64;
    let norms: Vec<f64> = (0..500)
        .map(|i| {
            embedding(&format!("word{i}"), d)
                .unwrap()
                .iter()
                .map(|&v| f64::from(v).powi(2))
                .sum()
        })
        .collect();
    let mean_norm = norms.iter().sum::<f64>() / norms.len() as f64;
    assert!((mean_norm - 1.0).abs() < 0.04, "mean ‖x‖² = {mean_norm}");
    // Distinct words are nearly orthogonal: |cos| of neighbours stays small on average.
    let a = embedding("oranges", 256).unwrap();
    let b = embedding("bananas", 256).unwrap();
    let cosine: f64 = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum();
    assert!(cosine.abs() < 0.25, "cos = {cosine}");
}

#[test]
fn embedding_rejects_zero_and_oversized_dimensions() {
    assert_eq!(embedding("a", 0), Err(MathError::ZeroDimension(0)));
    assert!(matches!(
        embedding("a", MAX_EMBEDDING_DIM + 1),
        Err(MathError::TooLarge { .. })
    ));
    assert_eq!(
        embedding("a", MAX_EMBEDDING_DIM).unwrap().len(),
        MAX_EMBEDDING_DIM
    );
}

#[test]
fn embed_tokens_stacks_the_word_embeddings_and_scales_by_sqrt_d() {
    let tokens = tokenize("3 oranges and 3 bananas");
    let d = 16;
    let x = embed_tokens(&tokens, d, false).unwrap();
    let scaled = embed_tokens(&tokens, d, true).unwrap();
    assert_eq!(x.dim(), (5, d));
    for (i, token) in tokens.iter().enumerate() {
        let row = embedding(token, d).unwrap();
        assert_eq!(x.row(i).to_vec(), row);
        for (s, v) in scaled.row(i).iter().zip(&row) {
            let expected = f64::from(*v) * (d as f64).sqrt();
            assert!((f64::from(*s) - expected).abs() <= 1e-6 * expected.abs().max(1.0));
        }
    }
    // The same word gives the same row wherever it stands.
    assert_eq!(x.row(0), x.row(3));
    assert_ne!(x.row(0), x.row(1));
}

#[test]
fn attention_input_adds_the_encoding_by_position() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    for d in [1, 2, 31, 32] {
        for scale in [false, true] {
            let x = embed_tokens(&tokens, d, scale).unwrap();
            let without = attention_input(&tokens, d, 10000.0, false, scale).unwrap();
            assert_eq!(without, x);
            let with = attention_input(&tokens, d, 10000.0, true, scale).unwrap();
            for ((i, c), &value) in with.indexed_iter() {
                let expected = f64::from(x[[i, c]]) + reference_encoding(i, c, d, 10000.0);
                assert!(
                    (f64::from(value) - expected).abs() < 1e-6 * expected.abs().max(1.0),
                    "d={d} ({i}, {c}): {value} vs {expected}"
                );
            }
        }
    }
}

#[test]
fn attention_input_of_an_empty_sentence_is_empty() {
    let none: [&str; 0] = [];
    let input = attention_input(&none, 8, 10000.0, true, true).unwrap();
    assert_eq!(input, Array2::<f32>::zeros((0, 8)));
}

#[test]
fn attention_input_rejects_bad_arguments() {
    let tokens = ["a", "b"];
    assert_eq!(
        attention_input(&tokens, 0, 10000.0, true, true),
        Err(MathError::ZeroDimension(0))
    );
    for base in [1.0, 0.5, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            attention_input(&tokens, 4, base, false, true),
            Err(MathError::InvalidBase(_))
        ));
    }
    let many: Vec<String> = (0..=MAX_TOKENS).map(|i| i.to_string()).collect();
    assert!(matches!(
        attention_input(&many, 4, 10000.0, true, true),
        Err(MathError::TooLarge { requested: 65, .. })
    ));
}

proptest! {
    #[test]
    fn same_word_same_vector_and_prefix_consistent(word in "\\PC{0,12}", d in 1usize..48, extra in 1usize..16) {
        let first = embedding(&word, d).unwrap();
        let second = embedding(&word, d).unwrap();
        prop_assert_eq!(&first, &second);
        // The stream does not depend on d: the wider embedding starts with the same normals.
        let wider = embedding(&word, d + extra).unwrap();
        let ratio = ((d + extra) as f64 / d as f64).sqrt();
        for (a, b) in first.iter().zip(&wider) {
            let expected = f64::from(*b) * ratio;
            prop_assert!((f64::from(*a) - expected).abs() <= 1e-6 * expected.abs().max(1e-3));
        }
    }

    #[test]
    fn tokens_never_contain_whitespace_and_never_exceed_the_cap(sentence in "\\PC{0,300}") {
        let tokens = tokenize(&sentence);
        prop_assert!(tokens.len() <= MAX_TOKENS);
        prop_assert_eq!(tokens.len(), count_tokens(&sentence).min(MAX_TOKENS));
        for token in &tokens {
            prop_assert!(!token.is_empty());
            prop_assert!(!token.chars().any(char::is_whitespace));
        }
    }
}
