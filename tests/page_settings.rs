//! Integration tests of `pe_lab::model::settings` and its keys (`model::query::settings_keys`): the attention panels' settings from links and
//! fields, clamping with notices, the heads following d, the permutations and the batch example.

use pe_lab::math::order::shuffle;
use pe_lab::math::stacking::PositionInjection;
use pe_lab::math::tokens::{tokenize, DEFAULT_SENTENCE, MAX_TOKENS};
use pe_lab::model::query::settings_keys::{is_settings_key, SETTINGS_KEYS};
use pe_lab::model::query::values::UrlName;
use pe_lab::model::settings::row::{Control, MenuOf, Setting, SliderOf, Value};
use pe_lab::model::settings::table::SETTINGS;
use pe_lab::model::settings::{
    batch_sequences, choose_permutation, divisors, nearest_divisor, next_shuffle_seed,
    PanelSettings, PermutationChoice, SimilarityView, MAX_TEXT_CHARS, PAD_TOKEN,
};

fn parse(query: &str, d: usize) -> (PanelSettings, Vec<String>) {
    PanelSettings::from_pairs(
        query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .collect::<Vec<_>>(),
        d,
    )
}

#[test]
fn defaults_are_the_seeds_sentence_and_the_chapters_batch() {
    let (l, notices) = parse("", 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(l, PanelSettings::default());
    assert_eq!(l.text, DEFAULT_SENTENCE);
    assert_eq!(l.tokens().len(), 8);
    assert_eq!(l.effective_valid_len(), None);
    assert!(l.positional_encoding && l.scale_embeddings);
    assert_eq!(l.heads(), 4);
    assert_eq!(l.batch_lens, [3, 2]);
    assert_eq!(l.permutation, PermutationChoice::Swap);
    assert_eq!((l.sim_position, l.sim_view), (5, SimilarityView::Gram));
    assert_eq!(l.complexity(60, 32), (60, 32, 3));
    assert_eq!(l.token_pair, (3, 6));
    let tokens = l.tokens();
    assert_eq!((tokens[3].as_str(), tokens[6].as_str()), ("3", "4"));
    // Settings that follow something else are not in the link.
    let keys: Vec<&str> = l.to_query().iter().map(|(k, _)| *k).collect();
    assert!(!keys.contains(&"valid") && !keys.contains(&"heads") && !keys.contains(&"cn"));
    assert!(keys.iter().all(|k| SETTINGS_KEYS.contains(k)));
}

#[test]
fn a_link_round_trips() {
    let query = "text=the river bank&valid=2&pe=0&sqrtd=off&heads=8&lens=4,1&perm=17&simi=100&simk=30&simview=dist&cn=500&cd=64&k=5&ti=0&tj=2";
    let (l, notices) = parse(query, 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(l.text, "the river bank");
    assert_eq!(l.effective_valid_len(), Some(2));
    assert!(!l.positional_encoding && !l.scale_embeddings);
    assert_eq!(l.heads(), 8);
    assert_eq!(l.batch_lens, [4, 1]);
    assert_eq!(l.permutation, PermutationChoice::Shuffle(17));
    assert_eq!((l.sim_position, l.sim_max_offset), (100, 30));
    assert_eq!(l.sim_view, SimilarityView::Distance);
    assert_eq!(l.complexity(60, 32), (500, 64, 5));
    assert_eq!(l.token_pair, (0, 2));
    let pairs = l.to_query();
    let (again, notices) =
        PanelSettings::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())), 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(again, l);
}

#[test]
fn the_mask_and_the_token_pair_are_read_after_the_sentence() {
    // `valid` before `text` in the link: still checked against the link's sentence.
    let (l, notices) = parse("valid=2&ti=2&text=a b c", 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((l.effective_valid_len(), l.token_pair.0), (Some(2), 2));
}

#[test]
fn bad_values_are_clamped_with_a_notice() {
    for (query, check) in [
        (
            "valid=abc",
            (|l: &PanelSettings| l.valid_len.is_none()) as fn(&PanelSettings) -> bool,
        ),
        ("valid=99", |l| l.valid_len.is_none()),
        ("valid=-3", |l| l.valid_len == Some(0)),
        ("pe=maybe", |l| l.positional_encoding),
        ("sqrtd=2", |l| l.scale_embeddings),
        ("scale=0.5", |l| l.extension_scale == 1.0),
        // `scale` is the context-extension factor only: 0 is clamped, √d is untouched.
        ("scale=0", |l| {
            l.extension_scale == 1.0 && l.scale_embeddings
        }),
        ("scale=off", |l| {
            l.extension_scale == 4.0 && l.scale_embeddings
        }),
        ("scale=abc", |l| l.extension_scale == 4.0),
        ("enc=xpos", |l| {
            l.encoding_in_use().to_query() == "sinusoidal"
        }),
        ("layers=99", |l| l.layers == 48),
        ("ctx=1", |l| l.training_context == 8),
        ("inject=twice", |l| l.injection == PositionInjection::Once),
        ("heads=0", |l| l.heads() == 1),
        ("heads=5", |l| l.heads() == 4),
        ("heads=999", |l| l.heads() == 32),
        ("lens=9,x", |l| l.batch_lens == [4, 2]),
        ("lens=1", |l| l.batch_lens == [3, 2]),
        ("perm=banana", |l| l.permutation == PermutationChoice::Swap),
        ("simi=1e9", |l| l.sim_position == 4095),
        ("simk=0", |l| l.sim_max_offset == 1),
        ("simview=pie", |l| l.sim_view == SimilarityView::Gram),
        ("cn=0", |l| l.complexity_n == Some(1)),
        ("cd=1e9", |l| l.complexity_d == Some(2048)),
        ("k=NaN", |l| l.kernel == 3),
        ("k=2.5", |l| l.kernel == 3),
        ("ti=50", |l| l.token_pair.0 == 7),
    ] {
        let (l, notices) = parse(query, 32);
        assert!(check(&l), "{query}: {l:?}");
        assert!(!notices.is_empty(), "{query} gave no notice");
        assert!(notices.iter().all(|n| n.len() < 200), "{notices:?}");
    }
    let mut l = PanelSettings::default();
    assert!(!l.update("colour", "red").is_empty());
    assert!(l.update("valid", "all").is_empty());
    assert!(l.update("validLen", "3").is_empty(), "long names work too");
    assert_eq!(l.effective_valid_len(), Some(3));
}

#[test]
fn long_or_hostile_sentences_are_cut_and_cleaned() {
    let words = (0..100)
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut l = PanelSettings::default();
    let notices = l.update("text", &words);
    assert!(
        notices.iter().any(|n| n.contains("100 words")),
        "{notices:?}"
    );
    assert_eq!(l.tokens().len(), MAX_TOKENS);
    assert_eq!(l.token_count(), MAX_TOKENS);
    let huge = "x".repeat(10 * MAX_TEXT_CHARS);
    assert!(!l.update("text", &huge).is_empty());
    assert_eq!(l.text.chars().count(), MAX_TEXT_CHARS);
    assert!(l.update("text", "a\u{0}b\nc").is_empty());
    assert_eq!(l.text, "a b c");
    // The empty sentence is a valid state: no tokens, no mask.
    assert!(l.update("text", "").is_empty());
    assert_eq!((l.token_count(), l.effective_valid_len()), (0, None));
    assert_eq!(l.token_pair, (0, 0));
}

#[test]
fn a_mask_longer_than_the_sentence_is_no_mask() {
    let mut l = PanelSettings::default();
    assert!(l.update("valid", "6").is_empty());
    assert_eq!(l.effective_valid_len(), Some(6));
    // The sentence shrinks: the mask stays set but masks nothing.
    l.update("text", "one two three");
    assert_eq!(l.effective_valid_len(), None);
    l.update("text", DEFAULT_SENTENCE);
    assert_eq!(l.effective_valid_len(), Some(6));
    assert!(l.update("valid", "8").is_empty());
    assert_eq!(l.effective_valid_len(), None, "valid_len = n masks nothing");
}

#[test]
fn heads_follow_d() {
    // Unchosen: the divisor nearest to 4, silently.
    let mut l = PanelSettings::default();
    for (d, heads) in [
        (32, 4),
        (33, 3),
        (1, 1),
        (7, 1),
        (6, 3),
        (100, 4),
        (2048, 4),
    ] {
        assert!(l.fit_to(d).is_empty());
        assert_eq!(l.heads(), heads, "d = {d}");
        assert_eq!(d % l.heads(), 0);
    }
    // Chosen: kept while it divides d, else the nearest divisor with a notice.
    let (mut l, _) = parse("heads=8", 32);
    assert!(l.fit_to(64).is_empty());
    assert_eq!(l.heads(), 8);
    let notices = l.fit_to(36);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].contains("heads = 8 does not divide d = 36"),
        "{notices:?}"
    );
    assert_eq!(l.heads(), 9);
    assert!(l.fit_to(1).len() == 1 && l.heads() == 1);
    assert_eq!(l.d(), 1);
}

#[test]
fn divisors_and_the_nearest_one() {
    assert_eq!(divisors(1), vec![1]);
    assert_eq!(divisors(32), vec![1, 2, 4, 8, 16, 32]);
    assert_eq!(divisors(36), vec![1, 2, 3, 4, 6, 9, 12, 18, 36]);
    assert_eq!(divisors(97), vec![1, 97]);
    assert!(divisors(0).is_empty());
    for d in 1..=300 {
        let brute: Vec<usize> = (1..=d).filter(|k| d % k == 0).collect();
        assert_eq!(divisors(d), brute, "d = {d}");
    }
    assert_eq!(nearest_divisor(32, 5), 4);
    assert_eq!(nearest_divisor(32, 6), 4, "ties go to the smaller divisor");
    assert_eq!(nearest_divisor(33, 4), 3);
    assert_eq!(nearest_divisor(100, 5), 5);
    assert_eq!(nearest_divisor(0, 5), 1);
}

#[test]
fn the_permutations_of_the_order_panel() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let swap = choose_permutation(PermutationChoice::Swap, &tokens);
    assert_eq!(swap.permutation, vec![0, 1, 2, 6, 4, 5, 3, 7]);
    let swapped: Vec<&str> = swap
        .permutation
        .iter()
        .map(|&i| tokens[i].as_str())
        .collect();
    assert_eq!(swapped.join(" "), "I would like 4 oranges and 3 bananas");
    // Without "3" and "4": the first and last tokens, said so.
    let other = tokenize("the river bank");
    let fallback = choose_permutation(PermutationChoice::Swap, &other);
    assert_eq!(fallback.permutation, vec![2, 1, 0]);
    assert!(fallback.description.contains("first and last"));
    assert_eq!(
        choose_permutation(PermutationChoice::Identity, &tokens).permutation,
        (0..8).collect::<Vec<_>>()
    );
    assert_eq!(
        choose_permutation(PermutationChoice::Shuffle(9), &tokens).permutation,
        shuffle(8, 9)
    );
    let empty: [&str; 0] = [];
    assert!(choose_permutation(PermutationChoice::Swap, &empty)
        .permutation
        .is_empty());
    assert_eq!(
        choose_permutation(PermutationChoice::Swap, &["one"]).permutation,
        vec![0]
    );
}

#[test]
fn the_next_shuffle_always_moves_a_token() {
    for n in 2..=MAX_TOKENS {
        let mut seed = 0;
        for _ in 0..20 {
            seed = next_shuffle_seed(n, seed);
            let p = shuffle(n, seed);
            assert!(
                p.iter().enumerate().any(|(i, &v)| i != v),
                "n = {n}, seed {seed}"
            );
        }
    }
    assert_eq!(next_shuffle_seed(1, 4), 5);
    assert_eq!(next_shuffle_seed(0, u64::MAX), 0);
}

#[test]
fn the_batch_example_pads_short_sentences() {
    let [a, b] = batch_sequences(&tokenize(DEFAULT_SENTENCE));
    assert_eq!(a, ["I", "would", "like", "3"]);
    assert_eq!(b, ["oranges", "and", "4", "bananas"]);
    let [a, b] = batch_sequences(&tokenize("one two three four five"));
    assert_eq!(a.len(), 4);
    assert_eq!(b, ["five", PAD_TOKEN, PAD_TOKEN, PAD_TOKEN]);
    let empty: [&str; 0] = [];
    let [a, b] = batch_sequences(&empty);
    assert!(a.iter().chain(&b).all(|t| t == PAD_TOKEN));
}

#[test]
fn lesson_keys_are_recognised() {
    for key in SETTINGS_KEYS {
        assert!(is_settings_key(key));
    }
    for key in ["d", "n", "base", "delta", "cols", "compute", "nonsense"] {
        assert!(!is_settings_key(key), "{key}");
    }
    assert!(is_settings_key("sentence") && is_settings_key("complexityN"));
}

#[test]
fn the_first_shuffles_of_the_seeds_sentence_move_tokens() {
    // The page's Shuffle button starts from seed 0: seeds 1 and 2 are what a reader (and the
    // end-to-end test) sees first.
    assert_eq!(next_shuffle_seed(8, 0), 1);
    assert_eq!(next_shuffle_seed(8, 1), 2);
    let swap = choose_permutation(PermutationChoice::Swap, &tokenize(DEFAULT_SENTENCE));
    assert_ne!(shuffle(8, 1), swap.permutation);
}

#[test]
fn the_encoding_keys_round_trip_and_defaults_stay_out_of_the_link() {
    let query = "enc=rope&aheads=12&clip=3&lmax=40&scale=2.5&ctx=4096&layers=6&skip=1&ln=1&causal=1&inject=every&trange=200";
    let (l, notices) = parse(query, 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(l.encoding_in_use().to_query(), "rope");
    assert_eq!((l.alibi_heads, l.clip, l.learned_max), (12, 3, 40));
    assert_eq!((l.extension_scale, l.training_context), (2.5, 4096));
    assert_eq!(
        (l.layers, l.skip, l.layer_norm, l.causal),
        (6, true, true, true)
    );
    assert_eq!(
        (l.injection, l.t5_range),
        (PositionInjection::EveryLayer, 200)
    );
    let written: String = l
        .to_query()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let (again, notices) = parse(&written, 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(again, l);
    let defaults: Vec<&str> = PanelSettings::default()
        .to_query()
        .iter()
        .map(|(k, _)| *k)
        .collect();
    for key in [
        "enc", "aheads", "clip", "lmax", "scale", "ctx", "layers", "skip", "ln", "causal",
        "inject", "trange",
    ] {
        assert!(!defaults.contains(&key), "{key} is written at its default");
    }
    // pe=0 is "no position"; turning it on again restores the family, or the chapter's P.
    let (off, _) = parse("enc=alibi&pe=0", 32);
    assert_eq!(off.encoding_in_use().to_query(), "none");
    let (on, _) = parse("enc=none&pe=1", 32);
    assert_eq!(on.encoding_in_use().to_query(), "sinusoidal");
}

/// Parses one `key=value` for d = 32; asserts that a link written from the result reads back to
/// it without a notice, and that the long name reads the same.
fn read_and_round_trip(row: &Setting, value: &str) -> (PanelSettings, Vec<String>) {
    let (read, notices) = PanelSettings::from_pairs([(row.key, value)], 32);
    let written = read.to_query();
    let (again, again_notices) =
        PanelSettings::from_pairs(written.iter().map(|(k, v)| (*k, v.as_str())), 32);
    assert!(
        again_notices.is_empty(),
        "{}={value}: {again_notices:?}",
        row.key
    );
    assert_eq!(again, read, "{}={value} written as {written:?}", row.key);
    for &long in row.long_names {
        let (by_long_name, long_notices) = PanelSettings::from_pairs([(long, value)], 32);
        assert_eq!(
            (&by_long_name, &long_notices),
            (&read, &notices),
            "{long}={value}"
        );
    }
    (read, notices)
}

/// Asserts one notice naming the key, and that the setting's value became `expected`.
fn clamped(row: &Setting, value: &str, notices: &[String], got: String, expected: String) {
    assert!(
        notices.len() == 1 && notices[0].starts_with(&format!("{} = ", row.key)),
        "{}={value}: {notices:?}",
        row.key
    );
    assert_eq!(got, expected, "{}={value}", row.key);
}

#[test]
fn every_row_round_trips_at_its_default_and_its_range_ends_and_clamps_with_a_notice() {
    let defaults = PanelSettings::default();
    let link = defaults.to_query();
    let (read, notices) = PanelSettings::from_pairs(link.iter().map(|(k, v)| (*k, v.as_str())), 32);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(read, defaults);
    for row in &SETTINGS {
        match row.value {
            Value::Integer { min, max, get, .. } => {
                let (min, max) = (min.of(&defaults), max.of(&defaults));
                for end in [min, max] {
                    let (read, notices) = read_and_round_trip(row, &end.to_string());
                    assert!(notices.is_empty(), "{}={end}: {notices:?}", row.key);
                    assert_eq!(get(&read), Some(end), "{}", row.key);
                }
                let beyond = [((min > 0).then(|| min - 1), min), (Some(max + 1), max)];
                for (value, end) in beyond.into_iter().filter_map(|(v, e)| Some((v?, e))) {
                    let (read, notices) = read_and_round_trip(row, &value.to_string());
                    let got = format!("{:?}", get(&read));
                    clamped(
                        row,
                        &value.to_string(),
                        &notices,
                        got,
                        format!("{:?}", Some(end)),
                    );
                }
            }
            Value::Decimal { range, get, .. } => {
                let (min, max) = (range.min, range.max);
                for end in [min, max] {
                    let (read, notices) = read_and_round_trip(row, &end.to_string());
                    assert!(notices.is_empty(), "{}={end}: {notices:?}", row.key);
                    assert_eq!(get(&read), end, "{}", row.key);
                }
                for (value, end) in [(min - 1.0, min), (max * 2.0, max)] {
                    let (read, notices) = read_and_round_trip(row, &value.to_string());
                    let got = get(&read).to_string();
                    clamped(row, &value.to_string(), &notices, got, end.to_string());
                }
            }
            Value::Switch { get, .. } => {
                for (value, on) in [("1", true), ("0", false)] {
                    let (read, notices) = read_and_round_trip(row, value);
                    assert!(
                        notices.is_empty() && get(&read) == on,
                        "{}={value}",
                        row.key
                    );
                }
                let (read, notices) = read_and_round_trip(row, "maybe");
                let (got, kept) = (get(&read).to_string(), get(&defaults).to_string());
                clamped(row, "maybe", &notices, got, kept);
            }
            Value::Name { names, get, .. } => {
                for name in names {
                    let (read, notices) = read_and_round_trip(row, name);
                    assert!(notices.is_empty(), "{}={name}: {notices:?}", row.key);
                    assert_eq!(get(&read), *name);
                }
                let (read, notices) = read_and_round_trip(row, "xyz");
                let (got, kept) = (get(&read).to_string(), get(&defaults).to_string());
                clamped(row, "xyz", &notices, got, kept);
            }
            // No panel setting is a bare number today; one would read back its own text.
            Value::Number { get, .. } => {
                let (read, notices) = read_and_round_trip(row, &get(&defaults).to_string());
                assert!(notices.is_empty() && read == defaults, "{}", row.key);
            }
            // Read by functions of their own, each tested above (the sentence, the mask, the
            // batch's lengths, the permutation).
            Value::Own { .. } => {
                let (read, notices) =
                    read_and_round_trip(row, &row.text(&defaults).unwrap_or_default());
                assert!(notices.is_empty() && read == defaults, "{}", row.key);
            }
        }
    }
}

#[test]
fn the_table_names_each_key_and_long_name_once_and_its_controls_match_its_values() {
    let names: Vec<&str> = SETTINGS
        .iter()
        .flat_map(|row| std::iter::once(row.key).chain(row.long_names.iter().copied()))
        .collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    for row in &SETTINGS {
        let fits = match row.control {
            Control::Slider {
                of: SliderOf::Steps(_),
                ..
            } => {
                matches!(row.value, Value::Integer { .. })
            }
            Control::Check(_) => matches!(row.value, Value::Switch { .. }),
            Control::Menu(_, MenuOf::Page) => matches!(row.value, Value::Name { .. }),
            _ => true,
        };
        assert!(
            fits,
            "{}: its control does not show its kind of value",
            row.key
        );
    }
}

// serde_json stands in for serde_wasm_bindgen: a native dev-dependency only.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn pe_lab_lesson_has_the_fields_of_the_table() {
    use pe_lab::model::params::Params;
    use pe_lab::model::settings::table::LessonView;
    // The fields `peLab.lesson` has always had (its contract in the README).
    let mut expected = vec![
        "text",
        "tokens",
        "validLen",
        "positionalEncoding",
        "scaleEmbeddings",
        "heads",
        "validLens",
        "permutation",
        "simPosition",
        "simMaxOffset",
        "simView",
        "complexityN",
        "complexityD",
        "kernel",
        "tokenI",
        "tokenJ",
        "encoding",
        "alibiHeads",
        "clip",
        "learnedMax",
        "extensionScale",
        "trainingContext",
        "layers",
        "skip",
        "layerNorm",
        "causal",
        "injection",
        "t5Range",
        "positionTable",
    ];
    let params = Params::default();
    let (settings, _) = parse("text=a b c&valid=2&enc=alibi&pe=0&cn=7&heads=8&clip=3", 32);
    let view = serde_json::to_value(LessonView::new(&settings, &params)).expect("JSON");
    let object = view.as_object().expect("an object");
    let shown: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut table = LessonView::names();
    assert_eq!(shown.len(), table.len());
    table.sort_unstable();
    expected.sort_unstable();
    assert_eq!(table, expected);
    // The values in use, as the page shows them.
    let json = |name: &str| object[name].to_string();
    for (name, value) in [
        ("text", "\"a b c\""),
        ("tokens", "[\"a\",\"b\",\"c\"]"),
        ("validLen", "2"),
        ("positionalEncoding", "false"),
        ("encoding", "\"none\""),
        ("heads", "8"),
        ("validLens", "[3,2]"),
        ("permutation", "\"swap\""),
        ("complexityN", "7"),
        ("complexityD", "32"),
        ("kernel", "3"),
        ("tokenI", "2"),
        ("tokenJ", "2"),
        ("clip", "3"),
        ("extensionScale", "4.0"),
        ("simView", "\"gram\""),
        ("skip", "false"),
        ("injection", "\"once\""),
    ] {
        assert_eq!(json(name), value, "{name}");
    }
    let (all, _) = parse("", 32);
    let view = serde_json::to_value(LessonView::new(&all, &params)).expect("JSON");
    assert_eq!(view["validLen"], serde_json::Value::Null);
}
