//! Integration tests of `pe_lab::math::binary`: the chapter's printed table of `digits(i, base=2,
//! pad=3)` for 0 … 7, bit periods, encoding periods from the definition 2π·base^(2j/d), and the
//! pairing of bits with frequencies against a brute-force search written out here.
#![cfg(not(target_arch = "wasm32"))] // native only: proptest

use pe_lab::math::binary::{
    bit_count, bit_period, bits, digits_lowest_first, pair_bits_with_frequencies, pair_period,
    MAX_ROWS,
};
use pe_lab::math::MathError;
use proptest::prelude::*;

/// The chapter's output of `for i in 0:7 … digits(i, base=2, pad = 3) … end`.
const CHAPTER_TABLE: [&str; 8] = ["000", "100", "010", "110", "001", "101", "011", "111"];

#[test]
fn bits_reproduce_the_chapter_table() {
    let table = bits(8);
    assert_eq!(table.dim(), (8, 3));
    for (i, printed) in CHAPTER_TABLE.iter().enumerate() {
        let row: String = table.row(i).iter().map(|&b| char::from(b'0' + b)).collect();
        assert_eq!(&row, printed, "row {i}");
        assert_eq!(&digits_lowest_first(i as u64, 3), printed);
    }
}

#[test]
fn bit_count_is_the_ceiling_of_log2_with_at_least_one_bit() {
    let expected = [
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (8, 3),
        (9, 4),
        (60, 6),
        (64, 6),
        (65, 7),
        (2048, 11),
    ];
    for (n, count) in expected {
        assert_eq!(bit_count(n), count, "n = {n}");
    }
    assert_eq!(bit_count(usize::MAX), 64);
}

#[test]
fn edge_sizes_are_total() {
    assert_eq!(bits(0).dim(), (0, 1));
    assert_eq!(bits(1).dim(), (1, 1));
    assert_eq!(bits(1)[[0, 0]], 0);
    assert_eq!(bits(usize::MAX).nrows(), MAX_ROWS);
    assert_eq!(
        digits_lowest_first(u64::MAX, 66),
        format!("{}00", "1".repeat(64))
    );
    assert_eq!(digits_lowest_first(5, 0), "");
}

#[test]
fn bit_periods_double_and_pair_periods_follow_the_definition() {
    assert_eq!(bit_period(0), 2.0);
    assert_eq!(bit_period(1), 4.0);
    assert_eq!(bit_period(2), 8.0);
    assert_eq!(bit_period(10), 2048.0);
    assert_eq!(bit_period(5000), f64::INFINITY);
    for (j, d, base) in [
        (0, 32, 10000.0),
        (3, 32, 10000.0),
        (15, 32, 10000.0),
        (1, 3, 7.0),
    ] {
        let expected = 2.0 * std::f64::consts::PI * f64::powf(base, (2 * j) as f64 / d as f64);
        assert!((pair_period(j, d, base) - expected).abs() < 1e-9 * expected);
    }
}

#[test]
fn bits_pair_with_the_closest_period_on_a_log_scale() {
    let (n, d, base) = (60, 32, 10000.0);
    let table = pair_bits_with_frequencies(n, d, base).unwrap();
    assert_eq!(table.len(), 6);
    // Brute force: all pairs, |ln(period_j / 2^(k+1))| smallest.
    for row in &table {
        let target = 2f64.powi(row.bit as i32 + 1);
        let distances: Vec<f64> = (0..d / 2)
            .map(|j| {
                let period =
                    2.0 * std::f64::consts::PI * f64::powf(base, (2 * j) as f64 / d as f64);
                (period / target).ln().abs()
            })
            .collect();
        let best = distances
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(j, _)| j)
            .unwrap();
        assert_eq!(row.pair, best, "{row:?}");
        assert_eq!(row.bit_period, target);
        assert_eq!(
            (row.sine_column, row.cosine_column),
            (2 * best, Some(2 * best + 1))
        );
        assert!((row.period_ratio - row.pair_period / target).abs() < 1e-12);
    }
    let pairs: Vec<usize> = table.iter().map(|row| row.pair).collect();
    assert_eq!(pairs, [0, 0, 0, 2, 3, 4]);
    // Where the analogy stops: the fastest column repeats every 2π, π times slower than bit 0.
    assert!((table[0].period_ratio - std::f64::consts::PI).abs() < 1e-12);
}

#[test]
fn odd_d_last_pair_has_no_cosine_column() {
    // d = 3: pairs 0 (columns 0, 1) and 1 (column 2 only); with base 2 pair 1's period is
    // 2π·2^(2/3) ≈ 9.97, the closest to bit 2's 8.
    let table = pair_bits_with_frequencies(8, 3, 2.0).unwrap();
    let last = &table[2];
    assert_eq!(
        (last.pair, last.sine_column, last.cosine_column),
        (1, 2, None)
    );
}

#[test]
fn pairing_rejects_bad_arguments() {
    assert_eq!(
        pair_bits_with_frequencies(0, 32, 10000.0),
        Err(MathError::ZeroPositions(0))
    );
    assert_eq!(
        pair_bits_with_frequencies(8, 0, 10000.0),
        Err(MathError::ZeroDimension(0))
    );
    assert!(matches!(
        pair_bits_with_frequencies(8, 4, 1.0),
        Err(MathError::InvalidBase(_))
    ));
}

proptest! {
    #[test]
    fn rows_spell_their_index_and_columns_repeat_with_the_bit_period(n in 1usize..3000) {
        let table = bits(n);
        prop_assert_eq!(table.ncols(), bit_count(n));
        // n fits: 2^bits ≥ n, and one bit fewer would not do (except the 1-bit minimum).
        prop_assert!(1usize << table.ncols() >= n);
        prop_assert!(table.ncols() == 1 || 1usize << (table.ncols() - 1) < n);
        for i in 0..n {
            let value: usize = table.row(i).iter().enumerate().map(|(k, &b)| usize::from(b) << k).sum();
            prop_assert_eq!(value, i);
        }
        for k in 0..table.ncols() {
            let period = bit_period(k) as usize;
            for i in 0..n {
                if i + period < n {
                    prop_assert_eq!(table[[i, k]], table[[i + period, k]]);
                }
                if i + period / 2 < n {
                    prop_assert_ne!(table[[i, k]], table[[i + period / 2, k]]);
                }
            }
        }
    }
}
