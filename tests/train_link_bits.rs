//! The page and a native build train a link to the same bits. This test trains the link below
//! natively, as the page's workers do (`pe_lab::model::train::replay`), and holds every loss (as
//! its float32 bits) and every accuracy against `tests/data/train_link_bits.json`; the end-to-end
//! suite (tests/e2e/train.test.mjs) holds the page's `stats.panels.train` against the same file.
//! Both passing means native = page, bit for bit. The link touches every transcendental function
//! the trainer calls: exp and ln (softmax, the loss), sin and cos (sinusoidal P, RoPE), pow (the
//! frequencies, ALiBi's slopes) and ln in float32 (T5's buckets).
//!
//! `PE_LAB_WRITE_FIXTURES=1 cargo test --test train_link_bits` writes the file anew (after a
//! change to the model, the data or the evaluation that is meant to change the numbers).

#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};

const LINK: &str =
    "?task=reverse&tenc=none,sinusoidal,learned,rope,alibi,t5,shaw&tsteps=60&tseeds=2&trainer=cpu";
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/train_link_bits.json"
);

/// The numbers that must be the same bits: per encoding, per seed, the loss of every step as
/// float32 bits and the accuracy at every length.
fn numbers_of(stats: &Value) -> Value {
    let mut results = serde_json::Map::new();
    for encoding in stats["encodings"].as_array().unwrap() {
        let name = encoding.as_str().unwrap();
        let seeds: Vec<Value> = stats["results"][name]["bySeed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let bits: Vec<u32> = s["loss"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| (l.as_f64().unwrap() as f32).to_bits())
                    .collect();
                json!({
                    "seed": s["seed"],
                    "lossBits": bits,
                    "accuracyByLength": s["accuracyByLength"],
                })
            })
            .collect();
        results.insert(name.to_string(), Value::Array(seeds));
    }
    json!({ "link": LINK, "results": results })
}

#[test]
fn a_link_trains_natively_to_the_bits_the_page_gives() {
    let (run, notices) = pe_lab::model::train::replay::run_link(LINK).unwrap();
    assert!(notices.is_empty(), "{notices:?}");
    let stats = serde_json::to_value(run.stats()).unwrap();
    assert_eq!(stats["seeds"], json!([1, 2]));
    let numbers = numbers_of(&stats);
    if std::env::var_os("PE_LAB_WRITE_FIXTURES").is_some() {
        std::fs::write(FIXTURE, serde_json::to_string(&numbers).unwrap() + "\n").unwrap();
    }
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    assert_eq!(expected["link"], LINK);
    for (name, seeds) in expected["results"].as_object().unwrap() {
        for (k, seed) in seeds.as_array().unwrap().iter().enumerate() {
            let got = &numbers["results"][name][k];
            assert_eq!(got["seed"], seed["seed"], "{name}");
            let (want, have) = (&seed["lossBits"], &got["lossBits"]);
            let first_difference = want
                .as_array()
                .unwrap()
                .iter()
                .zip(have.as_array().unwrap())
                .position(|(a, b)| a != b);
            assert_eq!(
                first_difference, None,
                "{name} seed {}: first step that differs",
                seed["seed"]
            );
            assert_eq!(want, have, "{name}");
            assert_eq!(got["accuracyByLength"], seed["accuracyByLength"], "{name}");
        }
    }
}
