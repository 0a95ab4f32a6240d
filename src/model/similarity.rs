//! The similarity panel without the DOM: the heatmap's rows and its diagonal check, p_i·p_j (live
//! and the forum's), the curve p_i·p_{i+k} from two rows, normalised positions, the distances of
//! neighbouring rows, a heatmap cell's reading, and every sentence and label stating them. Tested
//! natively; `web::panels::similarity` and its two drawing files draw, run the GPU and wire.

use serde::Serialize;

use super::params::format_base;
use super::present::{format_number, plural, subscript};
use super::query::values::UrlName;
use super::settings::SimilarityView;
use crate::math::gram::gram;
use crate::math::measures::{dot_curve, encoding_rows, row_dot, rows_within_budget};
use crate::math::similarity::{
    diagonal_spread, normalized_similarity, row_resemblance, SimilarityError,
};
use crate::math::MathError;

/// Multiply-adds of one Gram heatmap on the GPU: r²·d ≤ 2²⁶ (all 4096 rows up to d = 4, 181 rows
/// at d = 2048). Microseconds on a discrete GPU; on a 2-core software adapter (SwiftShader, the
/// tests' browser) 2²⁸ added 0.3–0.6 s to a frame at n = 4096, d = 2048, this about 0.1 s.
pub const GPU_GRAM_BUDGET: u64 = 1 << 26;
/// On the CPU (WebAssembly): r²·d ≤ 2²⁴, about 10 ms, so that the panel follows a slider.
pub const CPU_GRAM_BUDGET: u64 = 1 << 24;
/// The second starting row of the similarity curve is i + SHIFT (the forum's p_105 against p_5).
pub const SHIFT: usize = 100;
/// Rows of the exact diagonal check when the heatmap came from the GPU.
pub const CHECK_ROWS: usize = 128;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ForumCheck {
    pub d: usize,
    pub base: f64,
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
}

/// The panel's numbers (`peLab.stats.panels.similarity`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimilarityStats {
    pub view: &'static str,
    pub n: usize,
    pub d: usize,
    /// Rows (and columns) of the heatmap: n, or fewer when capped.
    pub heatmap_rows: usize,
    pub capped: bool,
    /// "webgpu" (Gram kernel + render pass) or "cpu".
    pub heatmap_source: &'static str,
    /// Largest deviation of a Gram entry from its diagonal's mean (≈ 1e-6 for even d).
    pub diagonal_spread: f64,
    pub diagonal_spread_rows: usize,
    /// Live, at the current d and base.
    pub p5p6: f64,
    pub p105p106: f64,
    pub p5p10: f64,
    /// The Stack Exchange answer's numbers, at d = 16, base 10000.
    pub forum: ForumCheck,
    /// The curve p_i·p_{i+k}, k = 0 … max_offset, and the same from i + 100.
    pub position: usize,
    pub max_offset: usize,
    pub curve: Vec<f64>,
    pub curve_shifted: Vec<f64>,
    pub curve_max_difference: f64,
    /// (i/n)·((i+1)/n) at n and at 2n; p_i·p_{i+1} at any n.
    pub normalized_n: usize,
    pub normalized_short: f64,
    pub normalized_long: f64,
    pub sinusoidal_neighbours: f64,
    /// ‖p_0 − p_1‖, ‖p_40 − p_41‖ (equal for even d: neighbours look alike at every position), and
    /// how little the slow columns move between neighbours, early (p_0, p_1) and later (p_40, p_41).
    pub distance01: f64,
    pub distance4041: f64,
    pub split_column: usize,
    pub low_frequency_max_difference01: f64,
    pub low_frequency_share01: f64,
    pub low_frequency_max_difference4041: f64,
    pub low_frequency_share4041: f64,
    /// Where the heatmap's cells are drawn, in canvas pixels [x0, y0, x1, y1] (zeros while the
    /// panel is off screen and not drawn yet).
    pub image: [f64; 4],
    pub ms: f64,
}

/// Every number but the heatmap's (see [`heatmap_plan`], [`SimilarityStats::set_heatmap`] and
/// [`diagonal_check`]) and `image` and `ms`: P of d columns at `base`, the curve from row
/// `position` over offsets 0 … `max_offset`. Errors: d = 0, a base that is not finite and > 1.
pub fn compute(
    view: SimilarityView,
    n: usize,
    d: usize,
    base: f64,
    position: usize,
    max_offset: usize,
) -> Result<SimilarityStats, SimilarityError> {
    let live = |i, j| row_dot(i, j, d, base);
    let forum = |i, j| row_dot(i, j, 16, 10000.0);
    let (i, k_max) = (position, max_offset);
    let curve = dot_curve(i, k_max, d, base)?;
    let curve_shifted = dot_curve(i + SHIFT, k_max, d, base)?;
    let rows = encoding_rows(0, 42, d, base)?;
    let near = row_resemblance(rows.view(), 0, 1)?;
    let later = row_resemblance(rows.view(), 40, 41)?;
    Ok(SimilarityStats {
        view: view.to_query(),
        n,
        d,
        p5p6: live(5, 6)?,
        p105p106: live(105, 106)?,
        p5p10: live(5, 10)?,
        forum: ForumCheck {
            d: 16,
            base: 10000.0,
            p5p6: forum(5, 6)?,
            p105p106: forum(105, 106)?,
            p5p10: forum(5, 10)?,
        },
        position: i,
        max_offset: k_max,
        curve_max_difference: curve
            .iter()
            .zip(&curve_shifted)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max),
        sinusoidal_neighbours: curve.get(1).copied().unwrap_or(f64::NAN),
        curve,
        curve_shifted,
        normalized_n: n,
        normalized_short: normalized_similarity(i, i + 1, n),
        normalized_long: normalized_similarity(i, i + 1, 2 * n),
        distance01: near.distance,
        distance4041: later.distance,
        split_column: near.split_column,
        low_frequency_max_difference01: near.low_frequency_max_difference,
        low_frequency_share01: near.low_frequency_share,
        low_frequency_max_difference4041: later.low_frequency_max_difference,
        low_frequency_share4041: later.low_frequency_share,
        ..SimilarityStats::default()
    })
}

/// Where the heatmap is computed and how many rows it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatmapPlan {
    /// The Gram kernel and the render pass draw it (the Gram view on WebGPU).
    pub on_gpu: bool,
    /// Rows drawn: within [`GPU_GRAM_BUDGET`] and the kernel's limit on the GPU, else `cpu_rows`.
    pub rows: usize,
    /// Rows within [`CPU_GRAM_BUDGET`]: what the CPU draws, also when the GPU fails.
    pub cpu_rows: usize,
}

/// The heatmap's rows for n rows of d columns; `gpu_max_rows` is the Gram kernel's limit.
pub fn heatmap_plan(
    view: SimilarityView,
    is_gpu: bool,
    n: usize,
    d: usize,
    gpu_max_rows: usize,
) -> HeatmapPlan {
    let on_gpu = view == SimilarityView::Gram && is_gpu;
    let cpu_rows = rows_within_budget(n, d, CPU_GRAM_BUDGET);
    let rows = if on_gpu {
        rows_within_budget(n, d, GPU_GRAM_BUDGET).min(gpu_max_rows)
    } else {
        cpu_rows
    };
    HeatmapPlan {
        on_gpu,
        rows,
        cpu_rows,
    }
}

impl SimilarityStats {
    /// Records a heatmap of `rows` rows drawn on the GPU or the CPU.
    pub fn set_heatmap(&mut self, rows: usize, on_gpu: bool) {
        self.heatmap_rows = rows;
        self.capped = rows < self.n;
        self.heatmap_source = if on_gpu { "webgpu" } else { "cpu" };
    }
}

/// The constant-diagonal check on the CPU from the first rows of a heatmap of `rows` rows (at
/// most [`CHECK_ROWS`]; the GPU's G is never read back): the largest deviation of an entry from
/// its diagonal's mean, and the rows checked. Errors: those of `encoding_rows`.
pub fn diagonal_check(rows: usize, d: usize, base: f64) -> Result<(f64, usize), MathError> {
    let check = rows.min(CHECK_ROWS);
    let p = encoding_rows(0, check, d, base)?;
    Ok((diagonal_spread(gram(p.view()).view()), check))
}

/// The note under the heatmap: what it shows, of which rows, computed where, how constant its
/// diagonals are, and why the CPU drew it when the GPU failed (`gpu_error`).
pub fn heatmap_note(
    stats: &SimilarityStats,
    view: SimilarityView,
    gpu_error: Option<&str>,
) -> String {
    let (n, d, rows) = (stats.n, stats.d, stats.heatmap_rows);
    let what = match view {
        SimilarityView::Gram => "Gram matrix G = P·Pᵀ (diverging map, ±⌈d/2⌉)",
        SimilarityView::Distance => "distances ‖p_i − p_j‖ (viridis, 0 = dark)",
    };
    let on_gpu = stats.heatmap_source == "webgpu";
    let source = if on_gpu {
        "computed on WebGPU (Gram kernel, drawn by the render pass)"
    } else {
        "computed on the CPU"
    };
    let extent = if stats.capped {
        let budget = if on_gpu {
            GPU_GRAM_BUDGET
        } else {
            CPU_GRAM_BUDGET
        };
        format!(
            "positions 0–{} only (of n = {n}: r²·d ≤ {:.1e} multiply-adds per redraw keeps the page live)",
            rows.saturating_sub(1),
            budget as f64
        )
    } else if rows == 1 {
        format!("position 0 (all of n = {n})")
    } else {
        format!("positions 0–{} (all of n = {n})", rows.saturating_sub(1))
    };
    let fallback = gpu_error
        .map(|e| format!(" The GPU path failed ({e}); the CPU drew it."))
        .unwrap_or_default();
    let (odd, why) = if d % 2 == 1 {
        ("With odd d the diagonals G[i, i+k] are not exactly constant: largest deviation from a diagonal's mean", " (the unpaired last sine column)")
    } else {
        (
            "Every diagonal G[i, i+k] is constant: largest deviation from its mean",
            " (float32 rounding)",
        )
    };
    format!(
        "The {what} of {extent}, {source}. {odd} {:.1e} over the first {}{why}.{fallback}",
        stats.diagonal_spread,
        plural(stats.diagonal_spread_rows, "row", "rows"),
    )
}

/// p₅·p₆, p₁₀₅·p₁₀₆ and p₅·p₁₀ at the current d and base.
pub fn live_sentence(stats: &SimilarityStats, base: f64) -> String {
    format!(
        "At d = {}, base {}: p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
        stats.d,
        format_base(base),
        stats.p5p6,
        stats.p105p106,
        stats.p5p10
    )
}

/// The same at the Q&A's d = 16, base 10000.
pub fn forum_sentence(stats: &SimilarityStats) -> String {
    let f = &stats.forum;
    format!(
        "The Q&A's worked numbers, recomputed (d = 16, base 10000): p₅·p₆ = {:.4}, p₁₀₅·p₁₀₆ = {:.4}, p₅·p₁₀ = {:.4}",
        f.p5p6, f.p105p106, f.p5p10
    )
}

/// How far apart the curves from i and i + [`SHIFT`] are, and why.
pub fn curve_sentence(stats: &SimilarityStats) -> String {
    let (i, d) = (stats.position, stats.d);
    format!(
        "From i = {i} and from i = {}: largest difference between the two curves {:.1e}{}",
        i + SHIFT,
        stats.curve_max_difference,
        if d % 2 == 0 {
            " — the similarity depends on the offset k only.".to_string()
        } else {
            format!(
                " — with odd d = {d} the unpaired last sine column makes it depend on i a little."
            )
        }
    )
}

/// Normalised positions: the same neighbours are more or less similar at n and 2n, p_i·p_{i+1}
/// is not.
pub fn normalized_sentence(stats: &SimilarityStats) -> String {
    let (i, n) = (stats.position, stats.normalized_n);
    let (si, sj, p) = (subscript(i), subscript(i + 1), stats.sinusoidal_neighbours);
    if i + 1 < n {
        format!(
            "Neighbours {i} and {}: (i/n)·((i+1)/n) = {} at n = {n} but {} at n = {} — the same two tokens, a different similarity. p{si}·p{sj} = {p:.4} at every n.",
            i + 1,
            format_number(stats.normalized_short),
            format_number(stats.normalized_long),
            2 * n,
        )
    } else {
        format!("Position i = {i} has no neighbour inside a sequence of n = {n}: raise n or lower i (p{si}·p{sj} = {p:.4} needs no n).")
    }
}

/// Whether the slow half of two neighbouring rows barely moves (each entry by less than 0.1) and
/// holds less than half of their squared distance, as at base 10000.
fn slow_columns_barely_move(max_difference: f64, share: f64) -> bool {
    max_difference < 0.1 && share < 0.5
}

/// ‖p₀ − p₁‖ against ‖p₄₀ − p₄₁‖, and how much of it the slow columns carry.
pub fn distance_sentence(stats: &SimilarityStats, base: f64) -> String {
    let d = stats.d;
    let (near, later) = (stats.distance01, stats.distance4041);
    if stats.split_column >= d {
        return format!("‖p₀ − p₁‖ = {near:.4}, ‖p₄₀ − p₄₁‖ = {later:.4}; with d = {d} there is a single frequency, so there are no slow columns.");
    }
    let s = stats;
    let (max01, share01) = (s.low_frequency_max_difference01, s.low_frequency_share01);
    let (max4041, share4041) = (
        s.low_frequency_max_difference4041,
        s.low_frequency_share4041,
    );
    format!(
        "‖p₀ − p₁‖ = {near:.4} and ‖p₄₀ − p₄₁‖ = {later:.4}{} Early rows are not special, neighbours are as alike at position 40 as at position 0: the slow columns {}–{} change by at most {} between p₀ and p₁ ({:.2}% of the squared distance) and by at most {} between p₄₀ and p₄₁ ({:.2}%). {}",
        if d % 2 == 0 {
            ": neighbours are equally far apart at every position (the distance depends on the offset only)."
        } else {
            " (odd d: almost, not exactly, equal)."
        },
        stats.split_column,
        d - 1,
        format_number(max01),
        100.0 * share01,
        format_number(max4041),
        100.0 * share4041,
        if slow_columns_barely_move(max01, share01) && slow_columns_barely_move(max4041, share4041) {
            "Over a few positions these columns barely move, wherever the positions are, so neighbours differ mostly in the fast columns on the left."
                .to_string()
        } else {
            format!(
                "At base {} these columns are not slow enough to stay still: neighbours differ in them too.",
                format_base(base)
            )
        }
    )
}

/// The legends of the curve chart: from i and from i + [`SHIFT`].
pub fn curve_labels(position: usize) -> [String; 2] {
    [position, position + SHIFT].map(|i| format!("from i = {i}"))
}

/// The legend of a normalised-position curve.
pub fn normalized_label(length: usize) -> String {
    format!("normalised, n = {length}")
}

/// The normalised chart's message when i has no neighbour in n.
pub fn no_neighbour_message(position: usize, n: usize) -> String {
    format!("Position i = {position} has no neighbour in n = {n}")
}

/// The read-out of heatmap cell (i, j) of P with d columns at `base`: p_i·p_j (the Gram view)
/// or ‖p_i − p_j‖, in float64 from float32 rows. Errors: those of `encoding_rows`.
pub fn describe_cell(
    view: SimilarityView,
    d: usize,
    base: f64,
    i: usize,
    j: usize,
) -> Result<String, MathError> {
    let (p, q) = (encoding_rows(i, 1, d, base)?, encoding_rows(j, 1, d, base)?);
    let pairs = || {
        p.iter()
            .zip(q.iter())
            .map(|(&a, &b)| (f64::from(a), f64::from(b)))
    };
    let (si, sj) = (subscript(i), subscript(j));
    let offset = j as i64 - i as i64;
    let value = match view {
        SimilarityView::Gram => format!(
            "G[{i}, {j}] = p{si}·p{sj} = {:.4}",
            pairs().map(|(a, b)| a * b).sum::<f64>()
        ),
        SimilarityView::Distance => format!(
            "‖p{si} − p{sj}‖ = {:.4}",
            pairs().map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt()
        ),
    };
    Ok(format!(
        "position i = {i} (row), position j = {j} (column), offset k = {offset}: {value}"
    ))
}

#[cfg(test)]
mod tests;
