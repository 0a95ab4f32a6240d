//! Integration tests of `pe_lab::math::measures` against independent references: rows of P from the
//! f64 formula and from `sinusoidal`, the closed form Σ cos(k·ω_j) of the similarity, the Stack
//! Exchange numbers (d = 16: p_5·p_6 = p_105·p_106 = 7.4852, p_5·p_10 = 6.1370), brute-force
//! distances, an f64 masked softmax, and the order twins' equivariance gaps.

use ndarray::{s, Array2};
use pe_lab::math::attention::multi_head_weights;
use pe_lab::math::binary::bits;
use pe_lab::math::encoding::{frequency, sinusoidal};
use pe_lab::math::gram::gram;
use pe_lab::math::measures::{
    batch_input, bits_as_signs, cpu_can_measure, distances_from_gram, dot_curve, encoding_rows,
    magnitude_widths, masked_weights_are_zero, row_dot, row_gaps, row_sum_error,
    rows_within_budget, sentence_weights, CPU_MEASURE_BUDGET,
};
use pe_lab::math::order::{equivariance_gap, shuffle, swap_permutation};
use pe_lab::math::similarity::{distance_matrix, dot_by_offset};
use pe_lab::math::tokens::{attention_input, tokenize, DEFAULT_SENTENCE};
use pe_lab::model::settings::batch_sequences;

#[test]
fn single_rows_agree_with_the_whole_encoding() {
    for (n, d, base) in [
        (60, 32, 1e4),
        (300, 33, 250.0),
        (10, 1, 2.0),
        (2048, 64, 1e6),
    ] {
        let p = sinusoidal(n, d, base);
        let rows = encoding_rows(0, n, d, base).unwrap();
        let worst = p
            .iter()
            .zip(rows.iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst <= 2.5e-7, "n={n} d={d} base={base}: {worst}");
        // A block starting later is the same rows.
        let later = encoding_rows(n / 2, n - n / 2, d, base).unwrap();
        assert_eq!(later, rows.slice(s![n / 2.., ..]));
    }
    assert!(encoding_rows(0, 3, 0, 1e4).is_err());
    assert!(encoding_rows(0, 3, 4, 1.0).is_err());
    assert_eq!(encoding_rows(7, 0, 4, 1e4).unwrap().dim(), (0, 4));
}

#[test]
fn the_stack_exchange_numbers() {
    let p56 = row_dot(5, 6, 16, 10000.0).unwrap();
    let p105 = row_dot(105, 106, 16, 10000.0).unwrap();
    let p510 = row_dot(5, 10, 16, 10000.0).unwrap();
    assert!((p56 - 7.4852).abs() < 5e-5, "p5·p6 = {p56}");
    assert!((p105 - 7.4852).abs() < 5e-5, "p105·p106 = {p105}");
    assert!((p510 - 6.1370).abs() < 5e-5, "p5·p10 = {p510}");
    assert_eq!(
        format!("{p56:.4} {p105:.4} {p510:.4}"),
        "7.4852 7.4852 6.1370"
    );
}

fn closed_form(k: usize, d: usize, base: f64) -> f64 {
    (0..d / 2)
        .map(|j| (k as f64 * frequency(j, d, base)).cos())
        .sum()
}

#[test]
fn the_similarity_curve_depends_on_the_offset_only() {
    for (d, base) in [(16, 1e4), (32, 1e4), (64, 100.0), (2, 2.0)] {
        let from_5 = dot_curve(5, 80, d, base).unwrap();
        let from_105 = dot_curve(105, 80, d, base).unwrap();
        assert_eq!(from_5.len(), 81);
        for k in 0..=80 {
            let expected = closed_form(k, d, base);
            assert!(
                (from_5[k] - expected).abs() < 1e-5 * d as f64,
                "d={d} k={k}"
            );
            assert!(
                (from_105[k] - expected).abs() < 1e-5 * d as f64,
                "d={d} k={k}"
            );
        }
        // And the whole-matrix twin gives the same curve.
        let p = sinusoidal(200, d, base);
        let twin = dot_by_offset(p.view(), 5, 80);
        for (a, b) in from_5.iter().zip(&twin) {
            assert!((a - b).abs() < 1e-5 * d as f64);
        }
    }
    // Odd d: the unpaired sine makes the curve depend on where it starts.
    let a = dot_curve(0, 10, 3, 10.0).unwrap();
    let b = dot_curve(40, 10, 3, 10.0).unwrap();
    assert!(a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 0.1));
}

#[test]
fn row_budgets() {
    for (n, d, budget) in [
        (60, 32, 1u64 << 24),
        (2048, 1024, 1 << 24),
        (4096, 2048, 1 << 28),
        (5, 1, 3),
        (1, 4096, 1),
        (100, 7, 700),
    ] {
        let r = rows_within_budget(n, d, budget);
        assert!(r >= 1 && r <= n.max(1));
        if r > 1 {
            assert!((r * r * d) as u64 <= budget, "n={n} d={d}: {r}");
        }
        if r < n {
            assert!(
                ((r + 1) * (r + 1) * d) as u64 > budget,
                "n={n} d={d}: {r} is not the largest"
            );
        }
    }
    assert_eq!(rows_within_budget(60, 32, 1 << 24), 60);
    assert_eq!(rows_within_budget(2048, 1024, 1 << 24), 128);
    assert_eq!(rows_within_budget(0, 3, 100), 1);
}

#[test]
fn distances_from_the_gram_matrix_are_euclidean() {
    for (n, d, base) in [(60, 32, 1e4), (40, 33, 250.0), (1, 8, 1e4), (30, 1, 1e4)] {
        let p = sinusoidal(n, d, base);
        let from_gram = distances_from_gram(gram(p.view()).view());
        let direct = distance_matrix(p.view());
        assert_eq!(from_gram.dim(), (n, n));
        for i in 0..n {
            assert_eq!(from_gram[[i, i]], 0.0);
            for j in 0..n {
                let tolerance = 2e-3 * (d as f32).sqrt();
                assert!(
                    (from_gram[[i, j]] - direct[[i, j]]).abs() < tolerance,
                    "n={n} d={d} ({i},{j}): {} vs {}",
                    from_gram[[i, j]],
                    direct[[i, j]]
                );
                assert_eq!(from_gram[[i, j]], from_gram[[j, i]]);
            }
        }
    }
}

/// Masked softmax of Z·Zᵀ/√d in f64.
fn reference_weights(z: &Array2<f32>, valid: usize) -> Array2<f64> {
    let (n, d) = z.dim();
    let z = z.mapv(f64::from);
    let mut w = Array2::<f64>::zeros((n, n));
    for i in 0..n {
        let valid = valid.min(n);
        if valid == 0 {
            // d2l's masked_softmax: all scores −10⁶, uniform weights.
            w.row_mut(i).fill(1.0 / n as f64);
            continue;
        }
        let scores: Vec<f64> = (0..valid)
            .map(|j| z.row(i).dot(&z.row(j)) / (d as f64).sqrt())
            .collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        for (j, s) in scores.iter().enumerate() {
            w[[i, j]] = (s - max).exp() / total;
        }
    }
    w
}

#[test]
fn sentence_weights_match_an_f64_softmax_and_masked_weights_are_exactly_zero() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    for (d, pe, scale, valid) in [
        (32, true, true, None),
        (32, false, true, Some(5)),
        (33, true, false, Some(1)),
        (1, true, true, Some(0)),
        (128, false, false, None),
    ] {
        let w = sentence_weights(&tokens, d, 1e4, pe, scale, valid).unwrap();
        let z = attention_input(&tokens, d, 1e4, pe, scale).unwrap();
        let expected = reference_weights(&z, valid.unwrap_or(tokens.len()));
        for (g, e) in w.iter().zip(&expected) {
            assert!((f64::from(*g) - e).abs() < 2e-6, "d={d}: {g} vs {e}");
        }
        // valid_len = 0 is d2l's uniform row: its "masked" weights are 1/n, not 0.
        assert_eq!(masked_weights_are_zero(w.view(), valid), valid != Some(0));
        assert!(row_sum_error(w.view()) < 1e-6);
    }
    // The mask check sees a non-zero masked weight.
    let mut w = sentence_weights(&tokens, 32, 1e4, true, true, Some(4)).unwrap();
    w[[0, 6]] = 1e-30;
    assert!(!masked_weights_are_zero(w.view(), Some(4)));
    assert!(masked_weights_are_zero(w.view(), None));
    let empty: [&str; 0] = [];
    assert_eq!(
        sentence_weights(&empty, 32, 1e4, true, true, None)
            .unwrap()
            .dim(),
        (0, 0)
    );
}

#[test]
fn the_batch_example_masks_each_sequence_in_all_of_its_heads() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    let sequences = batch_sequences(&tokens);
    let x = batch_input(&sequences, 32, 1e4, true, true).unwrap();
    assert_eq!(x.dim(), (2, 4, 32));
    for (b, sequence) in sequences.iter().enumerate() {
        let z = attention_input(sequence, 32, 1e4, true, true).unwrap();
        assert_eq!(x.slice(s![b, .., ..]), z);
    }
    let w = multi_head_weights(x.view(), 4, &[3, 2]).unwrap();
    for (b, valid) in [(0, 3), (1, 2)] {
        for h in 0..4 {
            let map = w.slice(s![b, h, .., ..]);
            assert!(
                masked_weights_are_zero(map, Some(valid)),
                "seq {b} head {h}"
            );
            assert!(map.column(valid - 1).iter().all(|&v| v > 0.0));
        }
    }
    // Heads differ: token embeddings + P, not the chapter's ones.
    assert_ne!(w.slice(s![0, 0, .., ..]), w.slice(s![0, 1, .., ..]));
    let uneven = vec![
        vec!["a".to_string()],
        vec!["b".to_string(), "c".to_string()],
    ];
    assert!(batch_input(&uneven, 4, 1e4, true, true).is_err());
}

#[test]
fn row_gaps_are_the_equivariance_gap_row_by_row() {
    let tokens = tokenize(DEFAULT_SENTENCE);
    for permutation in [
        swap_permutation(&tokens, "3", "4").unwrap(),
        shuffle(8, 3),
        (0..8).collect(),
    ] {
        for (d, scale) in [(32, true), (16, false), (33, true)] {
            let report = equivariance_gap(&tokens, &permutation, d, 1e4, scale).unwrap();
            let without = row_gaps(&tokens, &permutation, d, 1e4, scale, false).unwrap();
            let with = row_gaps(&tokens, &permutation, d, 1e4, scale, true).unwrap();
            assert_eq!(without.len(), 8);
            assert_eq!(
                without.iter().copied().fold(0.0, f64::max),
                report.without_pe
            );
            assert_eq!(with.iter().copied().fold(0.0, f64::max), report.with_pe);
            assert!(
                report.without_pe < 1e-5,
                "{permutation:?} d={d}: {}",
                report.without_pe
            );
            if permutation.iter().enumerate().any(|(i, &p)| i != p) {
                assert!(
                    report.with_pe > 1e-2,
                    "{permutation:?} d={d}: {}",
                    report.with_pe
                );
            } else {
                assert_eq!(report.with_pe, 0.0);
            }
        }
    }
}

#[test]
fn small_helpers() {
    assert!(cpu_can_measure(2048, 32));
    assert!(!cpu_can_measure(2048, 33));
    assert!(cpu_can_measure(1, 1));
    assert_eq!(2048u64 * 2048 * 32, CPU_MEASURE_BUDGET);
    assert_eq!(
        magnitude_widths(32, 2048),
        vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
    );
    assert_eq!(magnitude_widths(33, 64), vec![1, 2, 4, 8, 16, 32, 33, 64]);
    assert_eq!(magnitude_widths(1, 1), vec![1]);
    let b = bits(4);
    let signs = bits_as_signs(b.view());
    assert_eq!(signs.row(0).to_vec(), vec![-1.0, -1.0]);
    assert_eq!(signs.row(1).to_vec(), vec![1.0, -1.0], "lowest bit first");
    assert_eq!(signs.row(3).to_vec(), vec![1.0, 1.0]);
}

#[test]
fn shifting_the_sentence_changes_only_absolute_schemes() {
    use pe_lab::math::layer::random;
    use pe_lab::math::measures::shift_gaps;
    use pe_lab::math::position::{Encoding, PositionScheme};
    let tokens = pe_lab::math::tokens::tokenize(pe_lab::math::tokens::DEFAULT_SENTENCE);
    let projections = random(32, 1);
    let gaps = shift_gaps(
        &tokens,
        32,
        true,
        &PositionScheme::absolute(),
        &projections,
        100,
    )
    .unwrap();
    for (encoding, gap) in gaps {
        println!("shift gap, {encoding:?}: {gap:e}");
        match encoding {
            Encoding::Alibi | Encoding::T5 | Encoding::Shaw | Encoding::None => {
                assert_eq!(gap, 0.0, "{encoding:?}")
            }
            Encoding::Rope => assert!(gap < 1e-5, "RoPE: {gap}"),
            Encoding::Sinusoidal | Encoding::Learned => assert!(gap > 1e-3, "{encoding:?}: {gap}"),
        }
    }
}
