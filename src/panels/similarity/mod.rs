//! The similarity panel without the DOM: the heatmap's rows and its diagonal check, p_i·p_j (live
//! and the forum's), the curve p_i·p_{i+k} from two rows, normalised positions, the distances of
//! neighbouring rows, a heatmap cell's reading, and every sentence and label stating them. Tested
//! natively; its view (`view.rs`) and its two drawing files draw, run the GPU and wire.

use serde::Serialize;

use crate::math::gram::gram;
use crate::math::measures::{dot_curve, encoding_rows, row_dot, rows_within_budget};
use crate::math::similarity::{
    diagonal_spread, normalized_similarity, row_resemblance, SimilarityError,
};
use crate::math::MathError;
use crate::model::params::format_base;
use crate::model::present::{format_number, subscript};
use crate::model::query::values::UrlName;
use crate::model::settings::SimilarityView;

pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;
#[cfg(target_arch = "wasm32")]
mod charts;
#[cfg(target_arch = "wasm32")]
mod heatmap_view;

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
        SimilarityView::Gram => crate::message!("readout-similarity-gram"),
        SimilarityView::Distance => crate::message!("readout-similarity-distances"),
    };
    let on_gpu = stats.heatmap_source == "webgpu";
    let source = if on_gpu {
        crate::message!("readout-similarity-on-webgpu")
    } else {
        crate::message!("readout-similarity-on-cpu")
    };
    let extent = if stats.capped {
        let budget = if on_gpu {
            GPU_GRAM_BUDGET
        } else {
            CPU_GRAM_BUDGET
        };
        crate::message!(
            "readout-similarity-extent-capped",
            last = rows.saturating_sub(1),
            n = n,
            budget = format!("{:.1e}", budget as f64)
        )
    } else if rows == 1 {
        crate::message!("readout-similarity-extent-one", n = n)
    } else {
        crate::message!(
            "readout-similarity-extent",
            last = rows.saturating_sub(1),
            n = n
        )
    };
    let fallback = gpu_error
        .map(|e| crate::message!("readout-similarity-gpu-failed", error = e))
        .unwrap_or_default();
    let spread = format!("{:.1e}", stats.diagonal_spread);
    // The two notes take the same arguments; `message!` needs its id written out.
    macro_rules! note {
        ($id:literal) => {
            crate::message!(
                $id,
                what = what,
                extent = extent,
                source = source,
                spread = spread,
                rows = stats.diagonal_spread_rows,
                fallback = fallback
            )
        };
    }
    if d % 2 == 1 {
        note!("readout-similarity-heatmap-odd")
    } else {
        note!("readout-similarity-heatmap")
    }
}

/// p₅·p₆, p₁₀₅·p₁₀₆ and p₅·p₁₀ at the current d and base.
pub fn live_sentence(stats: &SimilarityStats, base: f64) -> String {
    crate::message!(
        "readout-similarity-live",
        d = stats.d,
        base = format_base(base),
        p5p6 = format!("{:.4}", stats.p5p6),
        p105p106 = format!("{:.4}", stats.p105p106),
        p5p10 = format!("{:.4}", stats.p5p10)
    )
}

/// The same at the Q&A's d = 16, base 10000.
pub fn forum_sentence(stats: &SimilarityStats) -> String {
    let f = &stats.forum;
    crate::message!(
        "readout-similarity-forum",
        p5p6 = format!("{:.4}", f.p5p6),
        p105p106 = format!("{:.4}", f.p105p106),
        p5p10 = format!("{:.4}", f.p5p10)
    )
}

/// How far apart the curves from i and i + [`SHIFT`] are, and why.
pub fn curve_sentence(stats: &SimilarityStats) -> String {
    let (i, d) = (stats.position, stats.d);
    let difference = format!("{:.1e}", stats.curve_max_difference);
    if d % 2 == 0 {
        crate::message!(
            "readout-similarity-curve",
            i = i,
            shifted = i + SHIFT,
            difference = difference
        )
    } else {
        crate::message!(
            "readout-similarity-curve-odd",
            i = i,
            shifted = i + SHIFT,
            difference = difference,
            d = d
        )
    }
}

/// Normalised positions: the same neighbours are more or less similar at n and 2n, p_i·p_{i+1}
/// is not.
pub fn normalized_sentence(stats: &SimilarityStats) -> String {
    let (i, n) = (stats.position, stats.normalized_n);
    let (si, sj, p) = (subscript(i), subscript(i + 1), stats.sinusoidal_neighbours);
    if i + 1 < n {
        crate::message!(
            "readout-similarity-normalized",
            i = i,
            next = i + 1,
            short = format_number(stats.normalized_short),
            n = n,
            long = format_number(stats.normalized_long),
            double = 2 * n,
            si = si,
            sj = sj,
            dot = format!("{p:.4}")
        )
    } else {
        crate::message!(
            "readout-similarity-no-neighbour",
            i = i,
            n = n,
            si = si,
            sj = sj,
            dot = format!("{p:.4}")
        )
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
    let (near, later) = (
        format!("{:.4}", stats.distance01),
        format!("{:.4}", stats.distance4041),
    );
    if stats.split_column >= d {
        return crate::message!(
            "readout-similarity-distance-single",
            near = near,
            later = later,
            d = d
        );
    }
    let s = stats;
    let (max01, share01) = (s.low_frequency_max_difference01, s.low_frequency_share01);
    let (max4041, share4041) = (
        s.low_frequency_max_difference4041,
        s.low_frequency_share4041,
    );
    let equal = if d % 2 == 0 {
        crate::message!("readout-similarity-distance-equal")
    } else {
        crate::message!("readout-similarity-distance-almost")
    };
    let verdict = if slow_columns_barely_move(max01, share01)
        && slow_columns_barely_move(max4041, share4041)
    {
        crate::message!("readout-similarity-slow-columns-still")
    } else {
        crate::message!(
            "readout-similarity-slow-columns-move",
            base = format_base(base)
        )
    };
    crate::message!(
        "readout-similarity-distance",
        near = near,
        later = later,
        equal = equal,
        first = stats.split_column,
        last = d - 1,
        max01 = format_number(max01),
        share01 = format!("{:.2}", 100.0 * share01),
        max4041 = format_number(max4041),
        share4041 = format!("{:.2}", 100.0 * share4041),
        verdict = verdict
    )
}

/// The legends of the curve chart: from i and from i + [`SHIFT`].
pub fn curve_labels(position: usize) -> [String; 2] {
    [position, position + SHIFT].map(|i| crate::message!("figure-similarity-curve-from", i = i))
}

/// The legend of a normalised-position curve.
pub fn normalized_label(length: usize) -> String {
    crate::message!("figure-similarity-normalized", n = length)
}

/// The normalised chart's message when i has no neighbour in n.
pub fn no_neighbour_message(position: usize, n: usize) -> String {
    crate::message!("figure-similarity-no-neighbour", i = position, n = n)
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
    Ok(crate::message!(
        "readout-similarity-cell",
        i = i,
        j = j,
        offset = offset,
        value = value
    ))
}

#[cfg(test)]
mod tests;
