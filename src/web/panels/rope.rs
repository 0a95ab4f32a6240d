//! RoPE (Su et al. 2021): the shift residual |s(m, n) − s(m + Δ, n + Δ)|/(‖q‖‖k‖) in float64
//! and float32 against Δ, RoFormer's long-term-decay bound beside the mean score of random q, k,
//! and the interleaved vs half-split layouts. CPU (`math::rope`) on both backends: a few hundred
//! rotations of one vector.

use crate::model::inputs::Inputs;
use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::super::dom::{self, now_ms};
use super::super::error::WebError;
use super::super::panel::{to_js, Panel, PanelSpec};
use super::family_charts::{draw_lines, draw_matrix, matrix_frame, LineChart, Scale, Series};
use super::{canvas_message, elapsed, format_number, Ctx};
use crate::gpu::rope_scores::{ROPE_MAX_DIMENSION, ROPE_MAX_POSITIONS};
use crate::math::rng::SplitMix64;
use crate::math::rope::{
    decay_bound_curve, interleaved_to_half_split, permute, random_pair_decay, score, scores_f32,
    shift_residuals, Layout, Precision,
};
use ndarray::Array2;
use plotters::prelude::SeriesLabelPosition;

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

pub fn compute(d_global: usize, base: f64, seed: u64) -> Result<RopeStats, WebError> {
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
fn score_vectors(d: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut stream = SplitMix64::new(seed ^ 0x524f_5045);
    let mut draw = || -> Vec<f32> {
        (0..d)
            .map(|_| stream.approx_standard_normal() as f32)
            .collect()
    };
    (draw(), draw())
}

fn repeated(v: &[f32], n: usize) -> Array2<f32> {
    Array2::from_shape_fn((n, v.len()), |(_, c)| v[c])
}

/// The largest max − min along any diagonal of a square matrix.
fn diagonal_spread(s: &Array2<f32>) -> f64 {
    let n = s.nrows();
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

/// The score heatmap's numbers (every backend) and picture (when drawn).
fn score_heatmap(ctx: &mut Ctx, dom: &RopeDom, stats: &mut RopeStats) -> Result<(), WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);
    let (q, k) = score_vectors(d, ctx.settings.seed);
    let check = n.min(SCORE_CHECK_ROWS);
    let sample = scores_f32(repeated(&q, check).view(), repeated(&k, check).view(), base)?;
    stats.score_diagonal_spread = diagonal_spread(&sample);
    stats.score_max_abs = sample.iter().fold(0.0f64, |m, v| m.max(f64::from(v.abs())));
    let range = (stats.score_max_abs as f32).max(f32::MIN_POSITIVE);
    let gpu_rows = n.min(ROPE_MAX_POSITIONS);
    let cpu_rows = n
        .min(CPU_SCORE_ROWS)
        .min(((CPU_SCORE_BUDGET / d.max(1)) as f64).sqrt() as usize)
        .max(1);
    let frame = |rows: usize, ctx: &mut Ctx| {
        matrix_frame(
            &dom.scores,
            ctx.scratch,
            (rows, rows),
            Scale::Diverging(range),
            ("Key position j", "Query position i"),
            (None, None),
        )
    };
    if !ctx.draw {
        return Ok(());
    }
    // Only on WebGPU: on the CPU path the frame and the n-row copies of q and k would be made
    // for nothing (draw_matrix below draws its own frame).
    if d <= ROPE_MAX_DIMENSION && ctx.backend.is_gpu() {
        let rect = frame(gpu_rows, ctx)?;
        let (qg, kg) = (repeated(&q, gpu_rows), repeated(&k, gpu_rows));
        match ctx
            .backend
            .draw_rope_scores((qg.view(), kg.view()), base, range, rect, &dom.scores)
        {
            Ok(true) => {
                stats.scores_n = gpu_rows;
                stats.scores_backend = "webgpu";
                return Ok(());
            }
            Ok(false) => {}
            // Any GPU failure: the CPU twin draws instead, and the stats say why.
            Err(error) => stats.scores_gpu_error = Some(error.to_string()),
        }
    }
    let scores = scores_f32(
        repeated(&q, cpu_rows).view(),
        repeated(&k, cpu_rows).view(),
        base,
    )?;
    draw_matrix(
        &dom.scores,
        ctx.scratch,
        scores.as_slice().unwrap_or(&[]),
        (cpu_rows, cpu_rows),
        Scale::Diverging(range),
        ("Key position j", "Query position i"),
        (None, None),
    )?;
    stats.scores_n = cpu_rows;
    stats.scores_backend = "cpu";
    Ok(())
}

fn render(ctx: &mut Ctx, dom: &RopeDom) -> Result<RopeStats, WebError> {
    let started = now_ms();
    let (d, base, seed) = (ctx.params.d, ctx.params.base, ctx.settings.seed);
    let mut stats = compute(d, base, seed)?;
    if stats.d >= 2 {
        score_heatmap(ctx, dom, &mut stats)?;
    }
    if stats.d < 2 {
        if ctx.draw {
            for canvas in [&dom.residuals, &dom.decay, &dom.scores] {
                canvas_message(
                    canvas,
                    &["RoPE rotates pairs of dimensions:", "d must be ≥ 2."],
                )?;
            }
        }
        dom::text(
            &dom.readout,
            &format!("d = {d} has no pair of dimensions to rotate."),
        );
        dom::text(&dom.decay_readout, "");
        stats.ms = elapsed(started);
        return Ok(stats);
    }
    let at = |delta: u64| {
        stats
            .shift_residual_f32
            .iter()
            .find(|(x, _)| *x == delta)
            .map_or(f64::NAN, |p| p.1)
    };
    if ctx.draw {
        draw_lines(
            &dom.residuals,
            &LineChart {
                x_desc: "Shift Δ (log)",
                y_desc: "Shift residual (log)",
                log_x: true,
                log_y: true,
                series: vec![
                    Series {
                        label: "float32".into(),
                        colour: 5,
                        points: stats
                            .shift_residual_f32
                            .iter()
                            .map(|&(x, y)| (x as f64, y))
                            .collect(),
                        dashed: false,
                        markers: true,
                    },
                    Series {
                        label: "float64".into(),
                        colour: 0,
                        points: stats
                            .shift_residual_f64_curve
                            .iter()
                            .map(|&(x, y)| (x as f64, y.max(1e-18)))
                            .collect(),
                        dashed: false,
                        markers: true,
                    },
                ],
                y_range: None,
                legend: SeriesLabelPosition::MiddleRight,
                marks: Vec::new(),
            },
        )?;
        draw_lines(
            &dom.decay,
            &LineChart {
                x_desc: "Relative distance r = n − m",
                y_desc: "|⟨R_m q, R_n k⟩| (log)",
                log_x: false,
                log_y: true,
                series: vec![
                    Series {
                        label: "bound on |score|".into(),
                        colour: 0,
                        points: stats.score_bound.clone(),
                        dashed: false,
                        markers: false,
                    },
                    Series {
                        label: "mean |score|".into(),
                        colour: 5,
                        points: stats.mean_abs_score.clone(),
                        dashed: false,
                        markers: true,
                    },
                ],
                y_range: None,
                legend: SeriesLabelPosition::MiddleRight,
                marks: Vec::new(),
            },
        )?;
    }
    let (m, n) = REFERENCE_POSITIONS;
    dom::text(
        &dom.readout,
        &format!(
            "Shift residual of s({m}, {n}) = ⟨R_{m} q, R_{n} k⟩, mean of {DRAWS} random pairs q, k at d = {}: float64 at most {} for every Δ up to 10⁵ (rounding only: exactly, the score depends on n − m only); float32 {} at Δ = 10, {} at 10³, {} at 10⁴, {} at 10⁵ — the angle (m + Δ)·θ_j is rounded to 2⁻²⁴ of itself, an error that grows with the position. Interleaved (GPT-J) and half-split (GPT-NeoX, rotate_half) layouts, after permuting the dimensions: largest score difference {}.",
            stats.d,
            format_number(stats.shift_residual_f64),
            format_number(at(10)),
            format_number(at(1_000)),
            format_number(at(10_000)),
            format_number(at(100_000)),
            format_number(stats.layout_difference),
        ),
    );
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
    dom::text(
        &dom.decay_readout,
        &format!(
            "RoFormer bounds a score by |⟨R_m q, R_n k⟩| ≤ max_j |h_(j+1) − h_j| · Σ_j |S_j|, where r = n − m is the offset, h_j = (q_2j + i·q_2j+1)·conj(k_2j + i·k_2j+1) multiplies the j-th pairs of q and k as complex numbers (i the imaginary unit here) and S_j = Σ_(l<j) e^(i·r·θ_l). Its Figure 2 plots the factor that depends on r alone, (1/(d/2))·Σ_j |S_j|: here it falls from {} at r = 0 to {} at r = {DECAY_MAX_DISTANCE} (a dimensionless curve, not a score). The chart puts the whole bound on the score's scale, for {MEAN_SAMPLES} random pairs q, k with independent N(0, 1) entries at d = {}: it falls from {} to {}, while the mean |score| of the same pairs stays between {} and {} at every distance shown (on average {}; for such q, k the score has variance d, so its mean size is about √(2d/π) = {}). The bound decays; the scores of random pairs do not: their mean stays within {} of 0. The decay is an upper bound, not what a score is.",
            format_number(first(&stats.decay_bound)),
            format_number(last(&stats.decay_bound)),
            stats.d,
            format_number(first(&stats.score_bound)),
            format_number(last(&stats.score_bound)),
            format_number(smallest),
            format_number(largest),
            format_number(typical),
            format_number((2.0 * stats.d as f64 / std::f64::consts::PI).sqrt()),
            format_number(mean_max),
        ),
    );
    // The same sentence whether or not the heatmap was drawn: a read-out that grew once the
    // panel came into view would push the panels below it down.
    dom::text(
        &dom.scores_readout,
        &format!(
            "S_ij = (R_i q)·(R_j k)/√d with one q and one k at every position (up to {} positions; WebGPU computes them in a compute shader, the CPU path at most {}): every diagonal j − i = const has one colour. Along each diagonal the scores differ by at most {} (float32 rounding, first {} rows), against scores up to {}: RoPE's score depends on the offset only.",
            ctx.params.n.min(ROPE_MAX_POSITIONS),
            CPU_SCORE_ROWS,
            format_number(stats.score_diagonal_spread),
            ctx.params.n.min(SCORE_CHECK_ROWS),
            format_number(stats.score_max_abs),
        ),
    );
    stats.ms = elapsed(started);
    Ok(stats)
}

crate::element_table! {
    pub struct RopeDom {
        residuals: HtmlCanvasElement = "rope-residuals",
        readout: HtmlElement = "rope-readout",
        decay: HtmlCanvasElement = "rope-decay",
        decay_readout: HtmlElement = "rope-decay-readout",
        scores: HtmlCanvasElement = "rope-scores",
        scores_readout: HtmlElement = "rope-scores-readout",
    }
}

pub struct RopePanel {
    spec: &'static PanelSpec,
    dom: RopeDom,
    stats: RopeStats,
}

impl RopePanel {
    pub fn mount(spec: &'static PanelSpec) -> Result<Self, WebError> {
        Ok(RopePanel {
            spec,
            dom: RopeDom::mount()?,
            stats: RopeStats::default(),
        })
    }
}

impl Panel for RopePanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.base)
            .with(ctx.params.n)
            .with(ctx.settings.seed)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.readout
    }
}
