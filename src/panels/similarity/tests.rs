//! The similarity panel's numbers and read-outs, against independent counts and their expected text.
use super::*;

/// At d = 4, base 10000, p_i = (sin i, cos i, sin i/100, cos i/100), so
/// p_i·p_j = cos(i − j) + cos((i − j)/100).
fn dot4(offset: f64) -> f64 {
    offset.cos() + (offset / 100.0).cos()
}

/// n rows of d columns at `base`, the curve from i = 3 over offsets 0 … 6.
fn at(n: usize, d: usize, base: f64) -> SimilarityStats {
    compute(SimilarityView::Gram, n, d, base, 3, 6).unwrap()
}

#[test]
fn stats_at_d4_are_cosines_of_the_offset() {
    let s = at(10, 4, 10_000.0);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
    assert!(close(s.p5p6, dot4(1.0)) && close(s.p105p106, dot4(1.0)));
    assert!(close(s.p5p10, dot4(5.0)));
    let expected: Vec<f64> = (0..7).map(|k| dot4(k as f64)).collect();
    assert!(s.curve.iter().zip(&expected).all(|(&a, &b)| close(a, b)));
    assert_eq!((s.curve.len(), s.curve_shifted.len()), (7, 7));
    assert!(s.curve_max_difference < 1e-6);
    // The forum's d = 16: eight pairs, ω_j = 10000^(−j/8).
    let forum: f64 = (0..8).map(|j| 10_000f64.powf(-j as f64 / 8.0).cos()).sum();
    assert!(close(s.forum.p5p6, forum));
    assert!(close(s.normalized_short, 0.12) && close(s.normalized_long, 0.03));
    let distance = (4.0 - 2.0 * dot4(1.0)).sqrt();
    assert!(close(s.distance01, distance) && close(s.distance4041, distance));
    assert_eq!((s.split_column, s.view), (2, "gram"));
    assert!(compute(SimilarityView::Gram, 10, 0, 10_000.0, 3, 6).is_err());
}

#[test]
fn the_heatmap_keeps_to_its_budget_and_its_note_says_so() {
    // r²·2048 ≤ 2²⁴ gives 90 rows on the CPU; ≤ 2²⁶, 181 on the GPU.
    let plan = heatmap_plan(SimilarityView::Gram, true, 4096, 2048, 4096);
    assert_eq!((plan.on_gpu, plan.rows, plan.cpu_rows), (true, 181, 90));
    assert!(!heatmap_plan(SimilarityView::Distance, true, 4096, 2048, 4096).on_gpu);
    let mut s = SimilarityStats::default();
    (s.n, s.d, s.diagonal_spread, s.diagonal_spread_rows) = (4096, 2048, 1.04e-6, 90);
    s.set_heatmap(90, false);
    let note = heatmap_note(&s, SimilarityView::Gram, Some("lost"));
    let start = "The Gram matrix G = P·Pᵀ (diverging map, ±⌈d/2⌉) of positions 0–89 only (of n = 4096: r²·d ≤ 1.7e7 multiply-adds per redraw keeps the page live), computed on the CPU.";
    let end = "from its mean 1.0e-6 over the first 90 rows (float32 rounding). The GPU path failed (lost); the CPU drew it.";
    assert!(note.starts_with(start) && note.ends_with(end), "{note}");
    (s.n, s.d, s.diagonal_spread_rows) = (1, 5, 1);
    s.set_heatmap(1, true);
    let note = heatmap_note(&s, SimilarityView::Distance, None);
    let part = "distances ‖p_i − p_j‖ (viridis, 0 = dark) of position 0 (all of n = 1), computed on WebGPU";
    assert!(note.contains(part), "{note}");
    assert!(note.ends_with("over the first 1 row (the unpaired last sine column)."));
    let (spread, rows) = diagonal_check(500, 4, 10_000.0).unwrap();
    assert!(spread < 1e-5 && rows == CHECK_ROWS);
}

#[test]
fn the_readouts_state_the_numbers_as_the_page_formats_them() {
    let s = at(10, 4, 10_000.0);
    let p5p10 = dot4(5.0);
    let live =
        format!("At d = 4, base 10000: p₅·p₆ = 1.5403, p₁₀₅·p₁₀₆ = 1.5403, p₅·p₁₀ = {p5p10:.4}");
    assert_eq!(live_sentence(&s, 10_000.0), live);
    let (forum, f) = (forum_sentence(&s), s.forum.p5p10);
    assert!(forum.ends_with(&format!("p₅·p₁₀ = {f:.4}")), "{forum}");
    let curve = curve_sentence(&s);
    assert!(curve.starts_with("From i = 3 and from i = 103: largest difference"));
    assert!(curve.ends_with(" — the similarity depends on the offset k only."));
    assert!(curve_sentence(&at(10, 5, 10_000.0)).contains("with odd d = 5 the unpaired"));
    let norm = normalized_sentence(&s);
    let pair = "Neighbours 3 and 4: (i/n)·((i+1)/n) = 0.1200 at n = 10 but 0.0300 at n = 20";
    assert!(norm.starts_with(pair), "{norm}");
    assert!(norm.ends_with(&format!("p₃·p₄ = {:.4} at every n.", dot4(1.0))));
    let last = normalized_sentence(&at(4, 4, 10_000.0));
    assert!(last.starts_with("Position i = 3 has no neighbour inside a sequence of n = 4"));
    let distance = distance_sentence(&s, 10_000.0);
    let (near, later) = (s.distance01, s.distance4041);
    let both = format!("‖p₀ − p₁‖ = {near:.4} and ‖p₄₀ − p₄₁‖ = {later:.4}: neighbours");
    assert!(distance.starts_with(&both), "{distance}");
    assert!(distance.contains("the slow columns 2–3 change") && distance.contains("barely"));
    let fast = distance_sentence(&at(10, 4, 2.0), 2.0);
    assert!(fast.ends_with(
        "At base 2 these columns are not slow enough to stay still: neighbours differ in them too."
    ));
    let single = distance_sentence(&at(10, 2, 10_000.0), 10_000.0);
    let one = "with d = 2 there is a single frequency, so there are no slow columns.";
    assert!(single.ends_with(one), "{single}");
}

#[test]
fn a_cell_reads_its_rows_and_the_labels_name_them() {
    let cell = describe_cell(SimilarityView::Gram, 4, 10_000.0, 5, 6).unwrap();
    let reading =
        "position i = 5 (row), position j = 6 (column), offset k = 1: G[5, 6] = p₅·p₆ = 1.5403";
    assert_eq!(cell, reading);
    let far = describe_cell(SimilarityView::Distance, 4, 10_000.0, 1, 0).unwrap();
    let distance = (4.0 - 2.0 * dot4(1.0)).sqrt();
    let text = format!("offset k = -1: ‖p₁ − p₀‖ = {distance:.4}");
    assert!(far.ends_with(&text), "{far}");
    assert_eq!(curve_labels(3), ["from i = 3", "from i = 103"]);
    assert_eq!(normalized_label(20), "normalised, n = 20");
    let message = "Position i = 3 has no neighbour in n = 4";
    assert_eq!(no_neighbour_message(3, 4), message);
}
