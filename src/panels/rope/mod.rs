//! The RoPE panel without the DOM: the shift residuals in float64 and float32, the layout check,
//! RoFormer's decay bound beside the scores of random pairs, the score heatmap's measured numbers,
//! and the sentences that state them. Tested natively; its view (`view.rs`) draws and wires (and
//! asks the GPU backend for the heatmap picture).

use ndarray::Array2;
use serde::Serialize;

use crate::gpu::rope_scores::ROPE_MAX_POSITIONS;
use crate::math::rng::SplitMix64;
use crate::math::rope::{
    decay_bound_curve, interleaved_to_half_split, permute, random_pair_decay, score, scores_f32,
    shift_residuals, Layout, Precision, RopeError,
};
use crate::model::present::format_number;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;

/// The shifts Δ of the residual curve: 1, 2, 5, 10, … 10⁵.
pub const SHIFTS: [u64; 16] = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
];
/// The residuals are averaged over this many seeded pairs q, k (one pair is noisy: the two
/// angles' roundings partly cancel by chance).
pub const DRAWS: usize = 16;
/// The positions m, n of the reference score s(m, n).
pub const REFERENCE_POSITIONS: (u64, u64) = (3, 10);
/// The decay curve runs over relative distances 0 … this.
pub const DECAY_MAX_DISTANCE: usize = 256;
/// Random pairs per distance for the mean score.
pub const MEAN_SAMPLES: usize = 64;
/// The score heatmap's relative property is measured on this many rows (CPU twin, every backend).
pub const SCORE_CHECK_ROWS: usize = 128;
/// The CPU path draws the score heatmap for at most this many rows, and at most n²·d ≤
/// [`CPU_SCORE_BUDGET`] (a few tens of milliseconds in WebAssembly); WebGPU draws the page's n.
pub const CPU_SCORE_ROWS: usize = 512;
pub const CPU_SCORE_BUDGET: usize = 1 << 25;
/// The two lines each canvas shows when d has no pair to rotate.
pub fn no_pair_message() -> [String; 2] {
    [
        crate::message!("figure-rope-no-pair-rotates-pairs"),
        crate::message!("figure-rope-no-pair-d-at-least-two"),
    ]
}

/// The panel's numbers (`peLab.stats.panels.rope`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RopeStats {
    /// The rotary dimension (the global d, less one when it is odd).
    pub d: usize,
    pub base: f64,
    pub positions: (u64, u64),
    pub draws: usize,
    /// The largest float64 shift residual over every Δ and draw.
    pub shift_residual_f64: f64,
    /// [Δ, mean float64 residual] pairs, Δ ascending.
    pub shift_residual_f64_curve: Vec<(u64, f64)>,
    /// [Δ, mean float32 residual] pairs, Δ ascending.
    pub shift_residual_f32: Vec<(u64, f64)>,
    /// max |s_interleaved(q, k) − s_half-split(Πq, Πk)| over the positions tried (float64).
    pub layout_difference: f64,
    /// [r, (1/(d/2))·Σ_j |S_j(r)|]: the dimensionless curve of RoFormer's Figure 2 ("relative
    /// upper bound"), not a score.
    pub decay_bound: Vec<(f64, f64)>,
    /// [r, mean over the `meanSamples` random pairs of the bound on |⟨R_0 q, R_r k⟩|]:
    /// max_j |h_(j+1) − h_j| · Σ_j |S_j(r)|, on the score's scale.
    pub score_bound: Vec<(f64, f64)>,
    /// [r, mean of |⟨R_0 q, R_r k⟩| over the same pairs].
    pub mean_abs_score: Vec<(f64, f64)>,
    /// [r, mean of ⟨R_0 q, R_r k⟩ over the same pairs] (expected 0).
    pub mean_random_score: Vec<(f64, f64)>,
    pub mean_samples: usize,
    /// The score heatmap: its rows (the page's n, or fewer on the CPU), and who computed it.
    pub scores_n: usize,
    pub scores_backend: &'static str,
    /// Why the WebGPU kernel did not draw it, when it failed.
    pub scores_gpu_error: Option<String>,
    /// S = (R_i q)·(R_j k)/√d for one q and one k at every position: the largest spread
    /// max − min along any diagonal j − i = const over the first rows (float32 rounding: the
    /// relative property), and the largest |S| for scale.
    pub score_diagonal_spread: f64,
    pub score_max_abs: f64,
    /// √d: the RMS of one random score (N(0, 1) entries), the scale of the mean's noise per pair.
    pub score_rms: f64,
    pub ms: f64,
}

fn normal_vector(d: usize, stream: &mut SplitMix64) -> Vec<f64> {
    (0..d).map(|_| stream.approx_standard_normal()).collect()
}

/// Every curve of the panel for rotary dimension `d_global` (one less when odd), base and seed;
/// d < 2 gives the stats without curves (no pair to rotate).
pub fn compute(d_global: usize, base: f64, seed: u64) -> Result<RopeStats, RopeError> {
    let d = d_global - d_global % 2;
    let mut stats = RopeStats {
        d,
        base,
        positions: REFERENCE_POSITIONS,
        draws: DRAWS,
        mean_samples: MEAN_SAMPLES,
        score_rms: (d as f64).sqrt(),
        ..RopeStats::default()
    };
    if d < 2 {
        return Ok(stats);
    }
    let (m, n) = REFERENCE_POSITIONS;
    let mut stream = SplitMix64::new(seed);
    let mut sum32 = vec![0.0; SHIFTS.len()];
    let mut sum64 = vec![0.0; SHIFTS.len()];
    let permutation = interleaved_to_half_split(d);
    for _ in 0..DRAWS {
        let q = normal_vector(d, &mut stream);
        let k = normal_vector(d, &mut stream);
        let r32 = shift_residuals(
            &q,
            &k,
            m,
            n,
            &SHIFTS,
            base,
            Layout::Interleaved,
            Precision::F32,
        )?;
        let r64 = shift_residuals(
            &q,
            &k,
            m,
            n,
            &SHIFTS,
            base,
            Layout::Interleaved,
            Precision::F64,
        )?;
        for (slot, ((_, a), (_, b))) in r32.iter().zip(&r64).enumerate() {
            sum32[slot] += a;
            sum64[slot] += b;
            stats.shift_residual_f64 = stats.shift_residual_f64.max(*b);
        }
        let (pq, pk) = (permute(&q, &permutation), permute(&k, &permutation));
        for (a, b) in [(0.0, 0.0), (3.0, 10.0), (100.0, 7.0), (1e4, 1e4 + 5.0)] {
            let one = score(&q, &k, a, b, base, Layout::Interleaved, Precision::F64)?;
            let two = score(&pq, &pk, a, b, base, Layout::HalfSplit, Precision::F64)?;
            stats.layout_difference = stats.layout_difference.max((one - two).abs());
        }
    }
    stats.shift_residual_f32 = SHIFTS
        .iter()
        .zip(&sum32)
        .map(|(&delta, s)| (delta, s / DRAWS as f64))
        .collect();
    stats.shift_residual_f64_curve = SHIFTS
        .iter()
        .zip(&sum64)
        .map(|(&delta, s)| (delta, s / DRAWS as f64))
        .collect();
    let distances: Vec<f64> = (0..=DECAY_MAX_DISTANCE).map(|r| r as f64).collect();
    stats.decay_bound = decay_bound_curve(d, base, &distances)?;
    let sampled: Vec<f64> = (0..=DECAY_MAX_DISTANCE)
        .step_by(8)
        .map(|r| r as f64)
        .collect();
    let pairs = random_pair_decay(d, base, &sampled, MEAN_SAMPLES, seed)?;
    let half = (d / 2) as f64;
    stats.score_bound = stats
        .decay_bound
        .iter()
        .map(|&(r, relative)| (r, pairs.mean_step * half * relative))
        .collect();
    stats.mean_random_score = pairs.points.iter().map(|p| (p.r, p.mean_score)).collect();
    stats.mean_abs_score = pairs
        .points
        .iter()
        .map(|p| (p.r, p.mean_abs_score))
        .collect();
    Ok(stats)
}

/// One seeded N(0, 1/d)-ish q and k of width d (f32), the same at every position.
pub fn score_vectors(d: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut stream = SplitMix64::new(seed ^ 0x524f_5045);
    let mut draw = || -> Vec<f32> {
        (0..d)
            .map(|_| stream.approx_standard_normal() as f32)
            .collect()
    };
    (draw(), draw())
}

/// `v` as every one of n rows.
pub fn repeated(v: &[f32], n: usize) -> Array2<f32> {
    Array2::from_shape_fn((n, v.len()), |(_, c)| v[c])
}

/// The largest max − min along any diagonal of a square matrix.
pub fn diagonal_spread(s: &Array2<f32>) -> f64 {
    let n = s.nrows().min(s.ncols());
    let mut worst = 0.0f64;
    for offset in -(n as i64 - 1)..n as i64 {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let j = i as i64 + offset;
            if (0..n as i64).contains(&j) {
                let v = f64::from(s[[i, j as usize]]);
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        worst = worst.max(hi - lo);
    }
    worst
}

/// Measures the score heatmap of q and k (see [`score_vectors`]) on its first rows, whoever draws
/// it: the diagonal spread and the largest |S| go into `stats`.
pub fn measure_scores(
    q: &[f32],
    k: &[f32],
    n: usize,
    base: f64,
    stats: &mut RopeStats,
) -> Result<(), RopeError> {
    let check = n.min(SCORE_CHECK_ROWS);
    let sample = scores_f32(repeated(q, check).view(), repeated(k, check).view(), base)?;
    stats.score_diagonal_spread = diagonal_spread(&sample);
    stats.score_max_abs = sample.iter().fold(0.0f64, |m, v| m.max(f64::from(v.abs())));
    Ok(())
}

/// The heatmap's colour range: the largest |S|, positive even when every score is 0.
pub fn score_range(stats: &RopeStats) -> f32 {
    (stats.score_max_abs as f32).max(f32::MIN_POSITIVE)
}

/// The rows WebGPU draws: the page's n, up to the kernel's limit.
pub fn gpu_score_rows(n: usize) -> usize {
    n.min(ROPE_MAX_POSITIONS)
}

/// The rows the CPU path draws: at most [`CPU_SCORE_ROWS`] and n²·d ≤ [`CPU_SCORE_BUDGET`], at
/// least one.
pub fn cpu_score_rows(n: usize, d: usize) -> usize {
    n.min(CPU_SCORE_ROWS)
        .min(((CPU_SCORE_BUDGET / d.max(1)) as f64).sqrt() as usize)
        .max(1)
}

/// The mean float32 residual at shift Δ (NaN when Δ is not one of [`SHIFTS`]).
pub fn residual_at(stats: &RopeStats, delta: u64) -> f64 {
    stats
        .shift_residual_f32
        .iter()
        .find(|(x, _)| *x == delta)
        .map_or(f64::NAN, |p| p.1)
}

/// The read-out when the page's `d` has no pair of dimensions.
pub fn no_pair_sentence(d: usize) -> String {
    crate::message!("readout-rope-no-pair", d = d)
}

/// The read-out under the residual chart.
pub fn residual_sentence(stats: &RopeStats) -> String {
    let (m, n) = REFERENCE_POSITIONS;
    crate::message!(
        "readout-rope-residual",
        m = m,
        n = n,
        draws = DRAWS,
        d = stats.d,
        f64_max = format_number(stats.shift_residual_f64),
        at_1e1 = format_number(residual_at(stats, 10)),
        at_1e3 = format_number(residual_at(stats, 1_000)),
        at_1e4 = format_number(residual_at(stats, 10_000)),
        at_1e5 = format_number(residual_at(stats, 100_000)),
        layout = format_number(stats.layout_difference),
    )
}

/// The read-out under the decay chart.
pub fn decay_sentence(stats: &RopeStats) -> String {
    let first = |curve: &[(f64, f64)]| curve.first().map_or(f64::NAN, |p| p.1);
    let last = |curve: &[(f64, f64)]| curve.last().map_or(f64::NAN, |p| p.1);
    let mean_max = stats
        .mean_random_score
        .iter()
        .map(|p| p.1.abs())
        .fold(0.0, f64::max);
    let sizes: Vec<f64> = stats.mean_abs_score.iter().map(|p| p.1).collect();
    let typical = sizes.iter().sum::<f64>() / sizes.len().max(1) as f64;
    let smallest = sizes.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = sizes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    crate::message!(
        "readout-rope-decay",
        relative_first = format_number(first(&stats.decay_bound)),
        relative_last = format_number(last(&stats.decay_bound)),
        max_distance = DECAY_MAX_DISTANCE,
        samples = MEAN_SAMPLES,
        d = stats.d,
        bound_first = format_number(first(&stats.score_bound)),
        bound_last = format_number(last(&stats.score_bound)),
        smallest = format_number(smallest),
        largest = format_number(largest),
        typical = format_number(typical),
        expected = format_number((2.0 * stats.d as f64 / std::f64::consts::PI).sqrt()),
        mean_max = format_number(mean_max),
    )
}

/// The read-out under the score heatmap for the page's n. It is the same whether or not the
/// heatmap was drawn: a read-out that grew once the panel came into view would push the panels
/// below it down.
pub fn scores_sentence(stats: &RopeStats, n: usize) -> String {
    crate::message!(
        "readout-rope-scores",
        rows = n.min(ROPE_MAX_POSITIONS),
        cpu_rows = CPU_SCORE_ROWS,
        spread = format_number(stats.score_diagonal_spread),
        check_rows = n.min(SCORE_CHECK_ROWS),
        max = format_number(stats.score_max_abs),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RoFormer's relative bound written out here, apart from `math::rope`:
    /// (1/(d/2))·Σ_j |Σ_(l<j) e^(i·r·θ_l)| with θ_l = base^(−2l/d).
    fn relative_bound(d: usize, base: f64, r: f64) -> f64 {
        let (mut re, mut im, mut total) = (0.0f64, 0.0f64, 0.0f64);
        for l in 0..d / 2 {
            let theta = base.powf(-2.0 * l as f64 / d as f64);
            re += (r * theta).cos();
            im += (r * theta).sin();
            total += (re * re + im * im).sqrt();
        }
        total / (d / 2) as f64
    }

    #[test]
    fn compute_gives_rounding_level_float64_residuals_and_growing_float32_ones() {
        let stats = compute(8, 10_000.0, 7).unwrap();
        assert_eq!((stats.d, stats.draws, stats.positions), (8, 16, (3, 10)));
        let deltas: Vec<u64> = stats.shift_residual_f32.iter().map(|p| p.0).collect();
        assert_eq!(deltas, SHIFTS.to_vec());
        assert_eq!(stats.shift_residual_f64_curve.len(), SHIFTS.len());
        assert!(
            stats.shift_residual_f64 < 1e-12,
            "{}",
            stats.shift_residual_f64
        );
        // The mean is at most the largest draw.
        for &(_, r) in &stats.shift_residual_f64_curve {
            assert!(r <= stats.shift_residual_f64);
        }
        // float32 rounds the angle to 2⁻²⁴ of itself: far larger at Δ = 10⁵ than at Δ = 10.
        let (near, far) = (residual_at(&stats, 10), residual_at(&stats, 100_000));
        assert!(near.is_finite() && far > 10.0 * near, "{near} {far}");
        assert!(far < 1e-3, "{far}");
        assert!(residual_at(&stats, 3).is_nan());
        assert!(
            stats.layout_difference < 1e-9,
            "{}",
            stats.layout_difference
        );
    }

    #[test]
    fn compute_decay_curves_match_the_bound_written_out_and_bound_the_scores() {
        let (d, base) = (8, 10_000.0);
        let stats = compute(d, base, 7).unwrap();
        assert_eq!(stats.decay_bound.len(), DECAY_MAX_DISTANCE + 1);
        // At r = 0 every S_j = j: the bound is (d/2 + 1)/2.
        assert!((stats.decay_bound[0].1 - 2.5).abs() < 1e-12);
        for &(r, b) in &stats.decay_bound {
            assert!((b - relative_bound(d, base, r)).abs() < 1e-9, "r = {r}");
        }
        // The sampled distances are 0, 8, … 256; at each, the mean bound holds the mean |score|.
        assert_eq!(stats.mean_abs_score.len(), DECAY_MAX_DISTANCE / 8 + 1);
        for &(r, abs) in &stats.mean_abs_score {
            let bound = stats.score_bound[r as usize].1;
            assert!(abs.is_finite() && abs > 0.0 && abs <= bound, "r = {r}");
        }
        assert_eq!(stats.score_rms, 8f64.sqrt());
    }

    #[test]
    fn compute_without_a_pair_has_no_curves_and_odd_d_drops_one() {
        for d in [0, 1] {
            let stats = compute(d, 10_000.0, 1).unwrap();
            assert!(stats.shift_residual_f32.is_empty() && stats.decay_bound.is_empty());
        }
        assert_eq!(compute(9, 10_000.0, 1).unwrap().d, 8);
    }

    #[test]
    fn diagonal_spread_is_zero_on_a_toeplitz_matrix_and_sees_one_changed_entry() {
        let mut s = Array2::from_shape_fn((5, 5), |(i, j)| (j as f32 - i as f32) * 0.5);
        assert_eq!(diagonal_spread(&s), 0.0);
        s[[3, 1]] += 0.25;
        assert_eq!(diagonal_spread(&s), 0.25);
    }

    #[test]
    fn measured_scores_depend_on_the_offset_up_to_float32_rounding() {
        let (q, k) = score_vectors(16, 3);
        assert_eq!((q.len(), k.len()), (16, 16));
        let mut stats = RopeStats::default();
        measure_scores(&q, &k, 40, 10_000.0, &mut stats).unwrap();
        assert!(stats.score_max_abs > 0.0);
        assert!(stats.score_diagonal_spread < 1e-4 * stats.score_max_abs);
        assert_eq!(score_range(&stats), stats.score_max_abs as f32);
        assert_eq!(score_range(&RopeStats::default()), f32::MIN_POSITIVE);
    }

    #[test]
    fn score_rows_stay_within_the_limits_and_the_budget() {
        assert_eq!(gpu_score_rows(10_000), ROPE_MAX_POSITIONS);
        assert_eq!(cpu_score_rows(100, 64), 100);
        assert_eq!(cpu_score_rows(4096, 64), CPU_SCORE_ROWS);
        let rows = cpu_score_rows(4096, 1024);
        assert!(rows < CPU_SCORE_ROWS && rows * rows * 1024 <= CPU_SCORE_BUDGET);
        assert_eq!(cpu_score_rows(0, 0), 1);
    }

    #[test]
    fn the_sentences_state_the_computed_numbers() {
        let mut stats = compute(8, 10_000.0, 7).unwrap();
        let (q, k) = score_vectors(8, 7);
        measure_scores(&q, &k, 300, 10_000.0, &mut stats).unwrap();
        let text = residual_sentence(&stats);
        assert!(text.starts_with("Shift residual of s(3, 10) = ⟨R_3 q, R_10 k⟩, mean of 16 random pairs q, k at d = 8: float64 at most "), "{text}");
        for delta in [10, 1_000, 10_000, 100_000] {
            assert!(text.contains(&format_number(residual_at(&stats, delta))));
        }
        assert!(text.ends_with(&format!(
            "largest score difference {}.",
            format_number(stats.layout_difference)
        )));
        let decay = decay_sentence(&stats);
        assert!(decay.contains("falls from 2.500 at r = 0 to "), "{decay}");
        assert!(decay.contains(&format!(
            "to {} at r = 256",
            format_number(stats.decay_bound[256].1)
        )));
        assert!(decay.contains("for 64 random pairs q, k"));
        assert!(decay.contains("√(2d/π) = 2.257"), "{decay}");
        let scores = scores_sentence(&stats, 300);
        assert!(scores.contains("(up to 300 positions;"), "{scores}");
        assert!(scores.contains("the CPU path at most 512)"));
        assert!(scores.contains(&format!(
            "differ by at most {} (float32 rounding, first 128 rows), against scores up to {}:",
            format_number(stats.score_diagonal_spread),
            format_number(stats.score_max_abs)
        )));
        assert!(scores_sentence(&stats, 9_000).contains("(up to 4096 positions;"));
        assert_eq!(
            no_pair_sentence(1),
            "d = 1 has no pair of dimensions to rotate."
        );
    }
}
