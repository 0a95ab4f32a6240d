use super::*;
use crate::math::heads::{repeat_valid_lens, tile_valid_lens};
use crate::math::position::{Encoding, PositionScheme};
use crate::math::sentence::{sentence_attention, LayerChoice};
use crate::model::complexity::{compute, MeasureState};

/// The page's default base.
const DEFAULT_BASE: f64 = 10_000.0;

fn words(text: &str) -> Vec<String> {
    text.split(' ').map(String::from).collect()
}

/// The answer to "What exactly are Q, K and V?" that starts every attention takeaway.
const IDEA: &str =
    "Each word's output averages the values V, weighted by how well its query Q matches each key K";

fn attention_case<'a>(
    tokens: &'a [String],
    weights: &'a [Vec<f32>],
    valid_len: Option<usize>,
) -> AttentionTakeaway<'a> {
    AttentionTakeaway {
        tokens,
        weights,
        valid_len,
        mode: ProjectionMode::Random,
        has_position: true,
        row_sum_error: 8e-8,
        delta: 1,
        offset_hit_rate: Some(1.0),
    }
}

#[test]
fn attention_answers_both_questions_then_gives_the_strongest_share() {
    let tokens = words("the cat sat");
    let w = vec![
        vec![0.2, 0.5, 0.3],
        vec![0.1, 0.1, 0.8],
        vec![0.3, 0.3, 0.4],
    ];
    let text = attention(&attention_case(&tokens, &w, None));
    assert_eq!(
        text,
        format!("{IDEA}: in this untrained layer “cat” takes 80% from “sat” (ringed). Without P they would ignore word order.")
    );
    // The share is the strongest weight of the map, as a percentage.
    let (q, k, strongest_weight) = strongest(&w).unwrap();
    assert_eq!((q, k), (1, 2));
    assert_eq!(percent(f64::from(strongest_weight)), "80");
    let masked = vec![
        vec![0.6, 0.4, 0.0],
        vec![0.3, 0.7, 0.0],
        vec![0.5, 0.5, 0.0],
    ];
    let text = attention(&attention_case(&tokens, &masked, Some(2)));
    assert!(
        text.contains("(every row sums to 1; key 2 is masked to exactly 0): in this untrained layer “cat” takes 70% from itself (ringed)."),
        "{text}"
    );
    // A mask cuts keys by their place: the order claim says so.
    assert!(
        text.ends_with("ignore word order (the mask aside)."),
        "{text}"
    );
    let no_p = AttentionTakeaway {
        has_position: false,
        ..attention_case(&tokens, &w, None)
    };
    assert!(attention(&no_p).ends_with("Without P, as here, the weights ignore word order."));
    let identity = AttentionTakeaway {
        mode: ProjectionMode::Identity,
        ..attention_case(&tokens, &w, None)
    };
    // The diagonal's mean: (0.2 + 0.1 + 0.4)/3 = 0.2333.
    let text = attention(&identity);
    assert!(
        text.contains("with Q = K = V = Z each word takes on average 23% of its output from itself, and “cat” takes 80% from “sat” (ringed)."),
        "{text}"
    );
    let broken = AttentionTakeaway {
        row_sum_error: 0.3,
        ..attention_case(&tokens, &w, None)
    };
    assert!(attention(&broken).contains("(the rows do NOT all sum to 1 (error 3.0e-1))"));
}

/// The default sentence's layer, with or without P, on the sentence or on it with "3" and "4"
/// swapped (the order panel's example): the weights.
fn layer_weights(tokens: &[String], position: bool, valid_len: Option<usize>) -> Vec<Vec<f32>> {
    let encoding = if position {
        Encoding::Sinusoidal
    } else {
        Encoding::None
    };
    let choice = LayerChoice {
        d: 32,
        base: DEFAULT_BASE,
        positional_encoding: position,
        scale_embeddings: true,
        mode: ProjectionMode::Random,
        seed: 1,
        delta: 1,
        beta: 1.0,
        position: PositionScheme::new(encoding, DEFAULT_BASE, 1),
    };
    let layer = sentence_attention(tokens, &choice, &choice.projections(), valid_len).unwrap();
    layer
        .weights()
        .rows()
        .into_iter()
        .map(|r| r.to_vec())
        .collect()
}

/// The largest |w'[π(i)][π(j)] − w[i][j]| for a permutation π that swaps `a` and `b`.
fn gap_under_swap(w: &[Vec<f32>], swapped: &[Vec<f32>], (a, b): (usize, usize)) -> f32 {
    let pi = |i: usize| match i {
        i if i == a => b,
        i if i == b => a,
        i => i,
    };
    let mut gap = 0.0f32;
    for (i, row) in w.iter().enumerate() {
        for (j, &x) in row.iter().enumerate() {
            gap = gap.max((swapped[pi(i)][pi(j)] - x).abs());
        }
    }
    gap
}

#[test]
fn the_order_clause_holds_in_the_layer_itself() {
    // "Without position the weight of one word on another depends only on the words, never on
    // their order (the mask aside)": the panel's layer, the default sentence and the swap of
    // "3" and "4" (positions 3 and 6).
    let sentence = words("I would like 3 oranges and 4 bananas");
    let swapped = words("I would like 4 oranges and 3 bananas");
    let swap = (3, 6);
    let without = gap_under_swap(
        &layer_weights(&sentence, false, None),
        &layer_weights(&swapped, false, None),
        swap,
    );
    assert!(without < 1e-5, "without P: {without}");
    // With P the same swap changes the weights: the layer sees the order.
    let with = gap_under_swap(
        &layer_weights(&sentence, true, None),
        &layer_weights(&swapped, true, None),
        swap,
    );
    assert!(with > 1e-3, "with P: {with}");
    // A mask (keys ≥ 5) is set by place: swapping a seen key with a masked one changes the
    // weights even without P, hence "(the mask aside)".
    let masked = gap_under_swap(
        &layer_weights(&sentence, false, Some(5)),
        &layer_weights(&swapped, false, Some(5)),
        swap,
    );
    assert!(masked > 1e-3, "masked, without P: {masked}");
}

#[test]
fn a_share_never_rounds_to_0_or_100_percent_unless_it_is() {
    assert_eq!(percent(0.5346), "53");
    assert_eq!(percent(0.9962), "99.6");
    assert_eq!(percent(0.99999), "99.999");
    assert_eq!(percent(0.0004), "0.04");
    assert_eq!(percent(1.0), "100");
    assert_eq!(percent(0.0), "0");
    assert_eq!(percent(0.125), "12");
}

#[test]
fn attention_at_the_extremes_says_what_holds() {
    let tokens = words("a b c d");
    let uniform = vec![vec![0.25; 4]; 4];
    let text = attention(&attention_case(&tokens, &uniform, Some(0)));
    assert_eq!(
        text,
        format!("{IDEA}; with every key masked every score is −10⁶, so each row is uniform: all 16 weights are 1/4.")
    );
    let one = words("solo");
    let text = attention(&attention_case(&one, &[vec![1.0]], None));
    assert_eq!(
        text,
        format!("{IDEA}: one token, “solo”, can attend only to itself (weight 1).")
    );
    assert_eq!(
        attention(&attention_case(&[], &[], None)),
        format!("{IDEA}: type a sentence to see the weights.")
    );
    let offset = AttentionTakeaway {
        mode: ProjectionMode::Offset,
        offset_hit_rate: Some(0.75),
        ..attention_case(&tokens, &uniform, None)
    };
    let text = attention(&offset);
    assert!(
        text.starts_with("Each position's output averages the values V"),
        "{text}"
    );
    assert!(
        text.ends_with("(every row sums to 1): on P alone, with no words, the offset head makes key i + 1 the strongest for 75% of the queries that have one (strongest weight 0.2500)."),
        "{text}"
    );
    let back = AttentionTakeaway {
        delta: -3,
        ..offset
    };
    assert!(attention(&back).contains("key i − 3 the strongest"));
    let none = AttentionTakeaway {
        offset_hit_rate: None,
        delta: 9,
        ..offset
    };
    assert!(attention(&none).contains("no query has a key δ = 9 away in 4 positions"));
}

#[test]
fn pipeline_says_what_q_k_and_v_are_then_the_shapes() {
    let idea = "Q, K and V are Z times three separate matrices: what a word looks for, is found by, and passes on";
    assert_eq!(
        pipeline(8, 32, 4, 8, 8e-8),
        format!("{idea}. Here 4 heads (step 3) use 8 of the 32 columns each.")
    );
    // The heads' columns make up the layer's width: 4 × 8 = 32.
    assert_eq!(4 * 8, 32);
    assert_eq!(
        pipeline(1, 1, 1, 1, 0.0),
        format!("{idea}. Here one head uses Q, K and V whole (d = 1).")
    );
    // Rows that do not sum to 1 are said, with the error.
    assert_eq!(
        pipeline(8, 32, 4, 8, 0.02),
        format!("{idea}. Here 4 heads (step 3) use 8 of the 32 columns each. Beware: the rows do NOT all sum to 1 (error 2.0e-2).")
    );
    assert_eq!(
        pipeline(0, 32, 4, 8, 0.0),
        format!("{idea}. Type a sentence in the attention panel to follow one through the layer.")
    );
}

/// How many of the batch·heads maps np.tile gives another length than repeat.
fn wrong_maps(valid_lens: &[usize], heads: usize) -> usize {
    let right = repeat_valid_lens(valid_lens, heads).unwrap();
    let tiled = tile_valid_lens(valid_lens, heads).unwrap();
    right.iter().zip(&tiled).filter(|(a, b)| a != b).count()
}

#[test]
fn heads_answer_the_tile_question_and_count_the_wrong_maps() {
    // "the heads of one sequence sit side by side in the batch": repeat's layout, b·heads + h.
    assert_eq!(repeat_valid_lens(&[1, 2], 2).unwrap(), [1, 1, 2, 2]);
    assert_eq!(tile_valid_lens(&[1, 2], 2).unwrap(), [1, 2, 1, 2]);
    assert_eq!(wrong_maps(&[3, 2], 4), 4);
    assert_eq!(
        heads(&[3, 2], 4, 4, wrong_maps(&[3, 2], 4)),
        "Yes, a bug: a sequence's heads sit side by side in the batch and must all use its valid_len, so repeat, not tile. Here all 4 heads of sequence 0 mask key 3 (valid_len 3), all 4 of sequence 1 keys 2–3 (valid_len 2); np.tile would give 4 of 8 maps the wrong length."
    );
    // One head: tile and repeat agree, and the sentence says so.
    assert_eq!(wrong_maps(&[0, 4], 1), 0);
    let text = heads(&[0, 4], 1, 4, 0);
    assert!(
        text.contains(
            "Here sequence 0's one head masks every key (valid_len 0: uniform weights), sequence 1's no key (valid_len 4); np.tile would change nothing here."
        ),
        "{text}"
    );
}

#[test]
fn complexity_answers_why_attention_is_slow_as_the_chart_shows() {
    let stats = compute(60, 32, 3, "cpu", &MeasureState::default()).unwrap();
    let text = complexity(&stats);
    assert_eq!(
        text,
        "Long sequences are slow because self-attention scores every pair of positions: n²·d = 115\u{202f}200 operations at n = 60, d = 32, 4× more when n doubles, while the RNN's n·d² = 61\u{202f}440 and the CNN's k·n·d² = 184\u{202f}320 (k = 3 neighbours, d × d weights each) only double: it costs more than the RNN past n = d = 32, than the CNN past n = k·d = 96."
    );
    // The claims, from the counts: n² scores of d each; 4× against 2× when n doubles; the
    // crossovers the chart marks.
    for (n, d, k) in [(60, 32, 3), (1, 1, 1), (100, 512, 5), (4096, 2048, 64)] {
        let at = |n| compute(n, d, k, "cpu", &MeasureState::default()).unwrap();
        let (one, two) = (at(n), at(2 * n));
        assert_eq!(
            one.self_attention.operations,
            (n * n * d) as f64,
            "n²·d at n = {n}"
        );
        assert_eq!(
            two.self_attention.operations,
            4.0 * one.self_attention.operations
        );
        assert_eq!(two.rnn.operations, 2.0 * one.rnn.operations);
        assert_eq!(two.cnn.operations, 2.0 * one.cnn.operations);
        assert_eq!(one.cnn.operations, (k * n * d * d) as f64);
        assert_eq!((one.crossover_n, one.crossover_n_cnn), (d, k * d));
        let past = |n: usize| at(n);
        let (rnn_edge, cnn_edge) = (past(d + 1), past(k * d + 1));
        assert!(rnn_edge.self_attention.operations > rnn_edge.rnn.operations);
        assert!(past(d).self_attention.operations <= past(d).rnn.operations);
        assert!(cnn_edge.self_attention.operations > cnn_edge.cnn.operations);
        assert!(past(k * d).self_attention.operations <= past(k * d).cnn.operations);
    }
    // No path length: the path figure draws at most 16 positions, the sentence does not
    // contradict it.
    assert_eq!(stats.drawn_positions, 16);
    assert!(!text.contains("path") && !text.contains("30"), "{text}");
    let k1 = complexity(&compute(60, 32, 1, "cpu", &MeasureState::default()).unwrap());
    assert!(k1.ends_with("than the CNN past n = k·d = 32."), "{k1}");
}

/// The scaling panel's numbers for the default sentence, pair and switches.
fn default_scaling(d: usize, scaled: bool) -> ScalingStats {
    let tokens = words("I would like 3 oranges and 4 bananas");
    crate::model::scaling::compute(&tokens, d, DEFAULT_BASE, (3, 6), scaled)
        .unwrap()
        .stats
}

#[test]
fn scaling_answers_both_questions_with_the_charts_numbers() {
    let stats = default_scaling(32, true);
    let pair = stats.pair.clone().unwrap();
    let text = scaling(&stats);
    assert_eq!(
        text,
        format!(
            "× √d keeps P from drowning the words: their embeddings go from {}× to {}× P's size (RMS). Adding keeps d = 32 columns (appending: 64) at the cost of x·p + p·x = {}: for “3” · “4” the bars show x·x = {}, p·p = {}, added {}.",
            format_number(stats.unscaled_ratio),
            format_number(stats.scaled_ratio),
            format_number(pair.cross_terms),
            format_number(pair.xx),
            format_number(pair.pp),
            format_number(pair.added),
        )
    );
    assert!(
        text.contains("0.2478× to 1.401×") && text.contains("x·x = 6.926, p·p = 12.272"),
        "{text}"
    );
    // What the sentence claims: the words below P's size without × √d, × √d multiplying them by
    // √d; added = x·x + cross terms + p·p, concatenated = x·x + p·p (only the cross terms
    // differ).
    assert!(stats.unscaled_ratio < 1.0 && stats.scaled_ratio > 1.0);
    let factor = stats.scaled_ratio / stats.unscaled_ratio;
    assert!((factor / 32f64.sqrt() - 1.0).abs() < 1e-6, "{factor}");
    // (float32 sums: to their rounding)
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0);
    assert!(close(pair.added, pair.xx + pair.cross_terms + pair.pp));
    assert!(close(pair.concatenated, pair.xx + pair.pp));
    assert!(close(pair.added - pair.concatenated, pair.cross_terms));
    // Without × √d the bars show the unscaled words, and say so; x·x is d times smaller.
    let plain = default_scaling(32, false);
    let plain_pair = plain.pair.clone().unwrap();
    assert!(scaling(&plain).contains("the bars (without × √d) show x·x = "));
    assert!(close(pair.xx, 32.0 * plain_pair.xx));
    // d = 1: √d = 1 changes nothing.
    let one = default_scaling(1, true);
    assert!((one.scaled_ratio - one.unscaled_ratio).abs() < 1e-12);
    assert!(scaling(&one).starts_with("At d = 1, √d = 1 changes nothing"));
    // Where the words are P's size even without × √d, the sentence says so.
    let big = ScalingStats {
        unscaled_ratio: 1.1,
        scaled_ratio: 1.5,
        d: 2,
        ..stats.clone()
    };
    assert!(scaling(&big).starts_with(
        "× √d is meant to keep P from drowning the words; at d = 2 they are 1.100× P's size (RMS) even without it, 1.500× with it."
    ));
    let empty = ScalingStats {
        pair: None,
        ..stats
    };
    assert!(scaling(&empty).ends_with("type a few words in the attention panel to measure both."));
}

/// The digit runs of a sentence, sorted: what a translation must keep.
fn numbers(text: &str) -> Vec<String> {
    let mut sorted: Vec<String> = text
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .map(|run| run.trim_matches('.'))
        .filter(|run| !run.is_empty())
        .map(str::to_string)
        .collect();
    sorted.sort();
    sorted
}

#[test]
fn the_chinese_catalog_states_the_same_numbers() {
    use crate::model::messages::{install_source, use_english, Computed};
    let tokens = words("the cat sat");
    let w = vec![
        vec![0.2, 0.5, 0.3],
        vec![0.1, 0.1, 0.8],
        vec![0.3, 0.3, 0.4],
    ];
    let (pair, even) = (words("a b"), vec![vec![0.5f32; 2]; 2]);
    let sentences = || {
        vec![
            pipeline(8, 32, 4, 8, 8e-8),
            pipeline(1, 1, 1, 1, 8e-8),
            attention(&attention_case(&tokens, &w, Some(2))),
            attention(&AttentionTakeaway {
                mode: ProjectionMode::Identity,
                has_position: false,
                ..attention_case(&tokens, &w, None)
            }),
            attention(&AttentionTakeaway {
                mode: ProjectionMode::Offset,
                ..attention_case(&tokens, &w, None)
            }),
            attention(&attention_case(&pair, &even, Some(0))),
            heads(&[3, 2], 4, 4, 4),
            heads(&[0, 4], 1, 4, 0),
            complexity(&compute(60, 32, 3, "cpu", &MeasureState::default()).unwrap()),
            scaling(&default_scaling(32, true)),
            scaling(&default_scaling(32, false)),
            stacking(&StackingTakeaway {
                n: 60,
                skip: false,
                layer_norm: false,
                residuals: &[0.9, 1e-4, 2.3e-10],
            }),
            stacking(&StackingTakeaway {
                n: 60,
                skip: true,
                layer_norm: true,
                residuals: &[0.9, 0.85],
            }),
        ]
    };
    let english = sentences();
    install_source::<Computed>("zh", include_str!("../../../locales/computed/zh.ftl")).unwrap();
    let chinese = sentences();
    use_english::<Computed>();
    assert_eq!(sentences(), english, "back in English");
    for (en, zh) in english.iter().zip(&chinese) {
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{zh}"
        );
        assert_eq!(numbers(zh), numbers(en), "{zh}\n{en}");
    }
    assert!(
        chinese[0].starts_with("Q、K 和 V 是 Z 分别乘以三个各自独立的矩阵")
            && chinese[0].contains("4 个头"),
        "{}",
        chinese[0]
    );
    assert!(
        chinese[2].contains("未训练") && chinese[2].contains("80%") && chinese[2].contains("键 2"),
        "{}",
        chinese[2]
    );
    assert!(
        chinese[6].starts_with("是 bug")
            && chinese[6].contains("序列 0 的全部 4 个头都掩蔽键 3（valid_len 3）"),
        "{}",
        chinese[6]
    );
    assert!(
        chinese[11].contains("经过 2 层") && chinese[11].contains("顺序丢失"),
        "{}",
        chinese[11]
    );
}

#[test]
fn stacking_names_the_risk_then_follows_the_residual() {
    let collapsed = stacking(&StackingTakeaway {
        n: 60,
        skip: false,
        layer_norm: false,
        residuals: &[0.9, 1e-4, 2.3e-10],
    });
    assert_eq!(
        collapsed,
        "The risk: attention averages rows, so stacked layers can pull them together. After 2 layers without skip connections the rows have collapsed to one (r_2 = 2.30e-10): every position outputs the same row, so the order is gone."
    );
    let apart = stacking(&StackingTakeaway {
        n: 60,
        skip: true,
        layer_norm: true,
        residuals: &[0.9, 0.85],
    });
    assert!(
        apart.contains("with skip connections and LayerNorm the rows stay apart (r_1 = 0.8500)")
            && apart.ends_with("rows still differ."),
        "{apart}"
    );
    let zero = stacking(&StackingTakeaway {
        n: 2,
        skip: false,
        layer_norm: false,
        residuals: &[0.9],
    });
    assert!(
        zero.contains(". Before any layer the rows are apart (r_0 = 0.9000)"),
        "{zero}"
    );
    let one = stacking(&StackingTakeaway {
        n: 1,
        skip: false,
        layer_norm: false,
        residuals: &[0.0, 0.0],
    });
    assert!(
        one.starts_with("With one position") && !one.contains("apart"),
        "{one}"
    );
}
