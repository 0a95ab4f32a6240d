//! Tests of the rotary embedding: rotation of vectors and of rows, the checks on inputs, the
//! layout permutation, and RoFormer's decay bound against actual scores.

use super::*;

#[test]
fn position_zero_is_the_identity() {
    let x = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(
        rotate(&x, 0.0, 10_000.0, Layout::HalfSplit).unwrap(),
        x.to_vec()
    );
}

#[test]
fn odd_or_empty_vectors_are_errors() {
    assert!(rotate(&[1.0; 3], 1.0, 10_000.0, Layout::Interleaved).is_err());
    assert!(rotate(&[], 1.0, 10_000.0, Layout::Interleaved).is_err());
    assert!(score(
        &[1.0; 2],
        &[1.0; 4],
        0.0,
        0.0,
        10.0,
        Layout::Interleaved,
        Precision::F64
    )
    .is_err());
}

#[test]
fn rows_rotate_like_single_vectors_and_odd_columns_stay() {
    let x = Array2::from_shape_fn((5, 4), |(i, j)| (i * 4 + j) as f32 * 0.25 - 2.0);
    let rotated = rotate_rows_f32(x.view(), 100.0);
    for (m, row) in x.rows().into_iter().enumerate() {
        let single = rotate_f32(&row.to_vec(), m as f32, 100.0, Layout::Interleaved).unwrap();
        assert_eq!(rotated.row(m).to_vec(), single);
    }
    let odd = Array2::from_shape_fn((3, 3), |(i, j)| (i + j) as f32);
    let rotated = rotate_rows_f32(odd.view(), 100.0);
    assert_eq!(rotated.column(2), odd.column(2));
}

#[test]
fn scores_reject_bad_inputs() {
    let a = Array2::<f32>::zeros((2, 4));
    let b = Array2::<f32>::zeros((2, 3));
    assert!(matches!(
        scores_f32(a.view(), b.view(), 10.0),
        Err(RopeError::LengthMismatch { query: 4, key: 3 })
    ));
    let empty = Array2::<f32>::zeros((2, 0));
    assert_eq!(
        scores_f32(empty.view(), empty.view(), 10.0),
        Err(RopeError::ZeroDimension)
    );
    assert!(scores_f32(a.view(), a.view(), 1.0).is_err());
    assert_eq!(scores_f32(a.view(), a.view(), 10.0).unwrap().dim(), (2, 2));
}

#[test]
fn permutation_pairs_coordinates() {
    assert_eq!(interleaved_to_half_split(6), vec![0, 2, 4, 1, 3, 5]);
}

#[test]
fn every_score_is_within_its_bound() {
    let mut stream = SplitMix64::new(5);
    for d in [2, 8, 32] {
        let q: Vec<f64> = (0..d).map(|_| stream.approx_standard_normal()).collect();
        let k: Vec<f64> = (0..d).map(|_| stream.approx_standard_normal()).collect();
        let step = max_pair_product_step(&q, &k);
        for r in [0.0, 1.0, 7.0, 100.0, 256.0] {
            let s = score(
                &q,
                &k,
                0.0,
                r,
                10_000.0,
                Layout::Interleaved,
                Precision::F64,
            )
            .unwrap();
            let bound = step * decay_bound(d, 10_000.0, r).unwrap() * (d / 2) as f64;
            assert!(s.abs() <= bound + 1e-9, "d = {d}, r = {r}: |{s}| > {bound}");
        }
    }
    let points = random_pair_decay(32, 10_000.0, &[0.0, 256.0], 64, 1).unwrap();
    assert!(points.points.iter().all(|p| p.mean_abs_score < p.bound));
    let at_end = points.mean_step * decay_bound(32, 10_000.0, 256.0).unwrap() * 16.0;
    assert!((points.points[1].bound - at_end).abs() < 1e-9 * at_end);
}

#[test]
fn bound_at_zero_is_the_mean_of_1_to_half_d() {
    let b = decay_bound(8, 10_000.0, 0.0).unwrap();
    assert!((b - 2.5).abs() < 1e-12);
}
