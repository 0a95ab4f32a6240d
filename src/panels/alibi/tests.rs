use super::*;
use crate::math::alibi::bias_only_weights;

/// The span counted key by key: the fewest most recent keys whose bias-only weights
/// e^(−m t) reach `share` of the total over t = 0 … i.
fn span_by_summing(m: f64, i: usize, share: f64) -> usize {
    let weights: Vec<f64> = (0..=i).map(|t| (-m * t as f64).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mut held = 0.0;
    for (k, w) in weights.iter().enumerate() {
        held += w;
        if held >= share * total * (1.0 - 1e-12) {
            return k + 1;
        }
    }
    i + 1
}

#[test]
fn compute_gives_the_geometric_slopes_and_spans_counted_key_by_key() {
    let stats = compute(8, 64);
    let expected: Vec<f64> = (1..=8).map(|h| 0.5f64.powi(h)).collect();
    assert_eq!(stats.slopes, expected);
    assert_eq!(stats.query_positions, vec![32, 64, 128, 256]);
    for (h, spans) in stats.spans.iter().enumerate() {
        for (&i, &k) in stats.query_positions.iter().zip(spans) {
            assert_eq!(
                k,
                span_by_summing(stats.slopes[h], i, SPAN_SHARE),
                "h {h} i {i}"
            );
            assert!((1..=i + 1).contains(&k));
        }
        // A later query never has fewer keys to spread over.
        assert!(spans.windows(2).all(|w| w[0] <= w[1]), "{spans:?}");
    }
    // Shallower slopes (later heads) look at least as far back.
    for k in 0..4 {
        assert!(stats.spans.windows(2).all(|w| w[0][k] <= w[1][k]));
    }
}

#[test]
fn weight_beyond_training_is_a_share_that_grows_with_shallower_slopes() {
    let stats = compute(12, 256);
    assert_eq!(stats.weight_beyond_training.len(), 12);
    let mut sorted = stats.slopes.clone();
    sorted.sort_by(|a, b| b.total_cmp(a));
    for pair in sorted.windows(2) {
        let at = |m: f64| weight_beyond_context(m, 512, 256);
        assert!(at(pair[0]) <= at(pair[1]));
    }
    for &w in &stats.weight_beyond_training {
        assert!((0.0..=1.0).contains(&w));
    }
    // Head 0 (m = 1/2) gives the keys more than 256 back about e^(−128.5).
    let head0 = stats.weight_beyond_training[0];
    assert!(
        (head0 / (-0.5f64 * 257.0).exp() - 1.0).abs() < 1e-6,
        "{head0}"
    );
}

#[test]
fn tiled_biases_hold_each_head_below_its_diagonal_and_nan_elsewhere() {
    let slopes = [0.5, 0.25, 0.125, 0.0625, 0.03125];
    let (values, rows, columns) = tiled_biases(&slopes);
    assert_eq!((rows, columns), (25, 51));
    assert_eq!(values.len(), rows * columns);
    // Head 1: top row of tiles, second tile; query 3, key 1.
    assert_eq!(values[3 * columns + 13 + 1], -0.5);
    assert_eq!(values[3 * columns + 13 + 3], 0.0);
    assert!(values[3 * columns + 13 + 4].is_nan());
    // The gap column between tiles, and head 4's tile (second row, first column).
    assert!(values[5 * columns + 12].is_nan());
    assert_eq!(values[(13 + 11) * columns], -(11.0 * 0.03125) as f32);
    // The empty row of tiles after head 4.
    assert!(values[13 * columns + 13].is_nan());
    assert_eq!(bias_limit(&slopes), 5.5);
    assert_eq!(bias_limit(&[]), 11.0);
}

#[test]
fn every_head_is_named_over_its_own_masked_cells() {
    // A phone's small blocks, a laptop's and a projector's large type, 1 to 16 heads: every
    // head named once, on its own block, hiding no bias; smaller type only where it must.
    let width = |text: &str, px: f64| 0.6 * px * text.chars().count() as f64;
    for (side, font) in [
        (250.0, 13.0),
        (300.0, 13.0),
        (420.0, 13.0),
        (480.0, 24.0),
        (900.0, 26.0),
    ] {
        for heads in [1, 2, 3, 4, 8, 12, 16] {
            let rect = PixelRect {
                x0: 40.0,
                y0: 10.0,
                x1: 40.0 + side,
                y1: 10.0 + 0.6 * side,
            };
            let HeadNames { short, px, boxes } = head_name_boxes(rect, heads, (font, 10.0), width);
            assert_eq!(boxes.len(), heads);
            assert!((10.0..=font).contains(&px), "{side} {heads}: {px}");
            // "h0" wherever there is room for it at the smallest size.
            assert!(!short || side < 420.0, "{side} {heads}: short names");
            for (h, b) in boxes.iter().enumerate() {
                let block = head_block(rect, heads, h);
                assert!(
                    over_masked_cells(b, &block),
                    "{side} {heads}: h{h} {b:?} in {block:?}"
                );
                for (g, other) in boxes.iter().enumerate().filter(|&(g, _)| g != h) {
                    assert!(
                        !over_masked_cells(b, &head_block(rect, heads, g)),
                        "h{h} on h{g}'s block"
                    );
                    assert!(
                        !crate::model::projection_figure::boxes_overlap(b, other),
                        "h{h}'s name on h{g}'s"
                    );
                }
            }
        }
    }
    // A block's diagonal: a box reaching onto it is not over masked cells.
    let block = PixelRect {
        x0: 0.0,
        y0: 0.0,
        x1: 120.0,
        y1: 120.0,
    };
    let on = PixelRect {
        x0: 20.0,
        y0: 2.0,
        x1: 118.0,
        y1: 40.0,
    };
    assert!(!over_masked_cells(&on, &block));
    assert!(over_masked_cells(&PixelRect { x0: 90.0, ..on }, &block));
    assert_eq!(
        (head_name(7, false), head_name(12, true)),
        ("h7".into(), "12".into())
    );
}

#[test]
fn tile_names_name_0_4_8_of_every_block_and_leave_gaps_unnamed() {
    let names = tile_names(26);
    let named: Vec<(usize, &str)> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_empty())
        .map(|(c, n)| (c, n.as_str()))
        .collect();
    assert_eq!(
        named,
        vec![
            (0, "0"),
            (4, "4"),
            (8, "8"),
            (13, "0"),
            (17, "4"),
            (21, "8")
        ]
    );
}

#[test]
fn the_bias_only_curve_is_the_last_row_of_the_bias_only_weights() {
    let (m, context) = (0.25, 20);
    let curve = bias_only_curve(m, context);
    assert_eq!(curve.len(), context + 1);
    let weights = bias_only_weights(m, context + 1);
    for &(t, w) in &curve {
        let reference = f64::from(weights[[context, context - t as usize]]);
        assert!((w - reference).abs() < 1e-6, "t = {t}");
    }
    let sum: f64 = curve.iter().map(|p| p.1).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert_eq!(bias_only_curve(m, 1000).len(), CURVE_DISTANCE + 1);
    assert_eq!(curve_label(2, 0.125), "h2: m = 0.1250");
}

#[test]
fn measured_weights_sum_to_one_and_give_future_keys_nothing() {
    let (q, k) = content(200, content_width(100), 5);
    assert_eq!(q.dim(), (200, 64));
    assert_ne!(q, k);
    assert_eq!(content(200, 64, 5).0, q);
    let mut stats = compute(4, 1024);
    measure_weights(&q, &k, heatmap_slope(&stats), &mut stats);
    assert!(
        stats.weights_row_sum_error < 1e-5,
        "{}",
        stats.weights_row_sum_error
    );
    assert!(stats.weights_future_zero);
    assert_eq!(heatmap_slope(&stats), 0.25);
    assert_eq!(heatmap_rows(10_000), ALIBI_MAX_POSITIONS);
    assert_eq!(content_width(0), 1);
}

#[test]
fn the_sentences_state_the_computed_numbers() {
    let stats = compute(8, 1024);
    let listed: Vec<String> = (1..=8).map(|h| format_number(0.5f64.powi(h))).collect();
    assert_eq!(
        slopes_sentence(&stats),
        format!(
            "Slopes of H = 8 heads (m_h = 2^(−8(h+1)/8), h = 0 … 7): {}.",
            listed.join(", ")
        )
    );
    let twelve = slopes_sentence(&compute(12, 1024));
    assert!(
        twelve.contains("H = 12 is not a power of two; as the reference code's get_slopes: the 8 slopes of H = 8, then the first 4 of every other slope of H = 16"),
        "{twelve}"
    );
    let beyond = beyond_sentence(&stats);
    assert!(beyond.contains("at query positions i = 512, 1024, 2048, 4096 (L = 1024,"));
    let spans = |h: usize| {
        stats.spans[h]
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    assert!(beyond.contains(&format!(
        "head 0 (m = 0.5000) puts 90 % of its weight on the last {} keys",
        spans(0)
    )));
    assert!(beyond.contains(&format!(
        "head 7 (m = {}) puts 90 % of its weight on the last {} keys",
        format_number(1.0 / 256.0),
        spans(7)
    )));
    assert!(beyond.contains(&format!(
        "at i = 2048 head 0 gives them a total weight of {} and head 7 {}.",
        tiny_weight(stats.weight_beyond_training[0]),
        tiny_weight(stats.weight_beyond_training[7])
    )));
    let mut measured = stats.clone();
    measured.weights_row_sum_error = 2.5e-7;
    measured.weights_future_zero = true;
    let heatmap = heatmap_sentence(&measured, 300, 100);
    assert!(heatmap.starts_with("Head 0 (m = 0.5000) of a layer with random q_i, k_j (width 64) over up to 300 positions"), "{heatmap}");
    assert!(heatmap.contains("the CPU path at most 512)"));
    // The attention panels' map of weights, named where the figure is read.
    assert!(heatmap.ends_with("(viridis, as in the attention panels: 0 dark purple, 1 yellow)."));
    assert!(
        heatmap.contains("= 2.50e-7 on the first 128 rows), keys after the query weigh exactly 0,")
    );
    measured.weights_future_zero = false;
    assert!(
        heatmap_sentence(&measured, 300, 100).contains("keys after the query do NOT all weigh 0,")
    );
    assert_eq!(tiny_weight(0.0), "below 10⁻³⁰⁷ (0 in float64)");
    assert_eq!(tiny_weight(0.25), "0.2500");
}
