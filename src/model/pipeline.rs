//! What the pipeline panel ("What exactly are Q, K and V?") says: its stage labels, the legend,
//! the hover trace, the tooltip and the summary. Pure text, tested natively.

use super::pipeline_figure::Selection;
use super::present::format_number;
use crate::math::layer::ProjectionMode;
use crate::math::pipeline::{Pipeline, Stage};

/// The summary of an empty sentence.
pub const EMPTY_SUMMARY: &str =
    "No tokens: type a sentence (in the attention panel above) to follow it through Q, K and V.";
/// The trace read-out before a hover.
pub const TRACE_HINT: &str = "Hover a cell to trace its query row (and a key) through every stage.";

use crate::math::position::Encoding;

/// "Z = X·√d + P" as the embedding switches and the position family have it.
pub fn z_formula(p: &Pipeline) -> &'static str {
    let learned = p.settings.position.encoding == Encoding::Learned;
    match (
        p.settings.scale_embeddings,
        p.settings.positional_encoding,
        learned,
    ) {
        (true, true, _) => "Z = X·√d + P",
        (false, true, _) => "Z = X + P",
        (true, false, true) => "Z = X·√d + E",
        (false, false, true) => "Z = X + E",
        (true, false, false) => "Z = X·√d",
        (false, false, false) => "Z = X",
    }
}

/// A colour-scale end: 3 significant digits at most.
fn short(v: f32) -> String {
    let v = f64::from(v);
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The two label lines of a stage: what it is, then its shape (in numbers and symbols) and its
/// colour scale.
pub fn stage_label(p: &Pipeline, stage: Stage) -> (String, String) {
    let (rows, columns) = p.shape(stage);
    let title = match stage {
        Stage::Z => z_formula(p),
        Stage::Q => "Q = Z·W_q",
        Stage::K => "K = Z·W_k",
        Stage::V => "V = Z·W_v",
        Stage::Scores => match p.settings.position.encoding {
            Encoding::Rope => "(RQ)(RK)ᵀ/√d_h",
            Encoding::Alibi => "QKᵀ/√d_h + m(j−i)",
            Encoding::T5 => "QKᵀ/√d_h + b(j−i)",
            Encoding::Shaw => "Q(K+aᴷ)ᵀ/√d_h",
            _ => "QKᵀ/√d_h",
        },
        Stage::Masked => "masked",
        Stage::Weights => "softmax",
        Stage::Mixed => "weights·V",
        Stage::Output => "concat heads ·W_o",
    };
    let symbols = match stage {
        Stage::Z | Stage::Output => "n×d",
        Stage::Q | Stage::K | Stage::V | Stage::Mixed => "n×d_h",
        _ => "n×n",
    };
    let scale = match stage {
        Stage::Weights => "0…1".to_string(),
        Stage::Masked if p.valid() < p.n() => format!("keys ≥ {} → −10⁶", p.valid()),
        Stage::Masked => "no mask".to_string(),
        _ => format!("±{}", short(p.max_abs(stage))),
    };
    (
        title.to_string(),
        format!("{rows}×{columns} ({symbols}), {scale}"),
    )
}

/// The line under the figure.
pub fn legend(p: &Pipeline) -> String {
    format!(
        "Head 0 of h = {} (d_h = {}). Blue–white–red: each signed matrix on its own ±max|value| scale; viridis: weights 0…1; hatched grey: masked key.",
        p.heads(),
        p.head_dim()
    )
}

fn name(p: &Pipeline, i: usize) -> &str {
    p.tokens.get(i).map_or("?", String::as_str)
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Z => "Z",
        Stage::Q => "Q",
        Stage::K => "K",
        Stage::V => "V",
        Stage::Scores => "score",
        Stage::Masked => "masked score",
        Stage::Weights => "w",
        Stage::Mixed => "(weights·V)",
        Stage::Output => "output",
    }
}

/// The value of a cell as the page writes it (a masked score is "−10⁶").
fn value(p: &Pipeline, stage: Stage, r: usize, c: usize) -> String {
    let m = p.matrix(stage);
    match m.get((r, c)) {
        Some(_) if stage == Stage::Masked && p.is_masked(c) => "−10⁶".to_string(),
        Some(&v) => format_number(f64::from(v)),
        None => "?".to_string(),
    }
}

/// The tooltip of the cell (r, c) of `stage`.
pub fn cell_text(p: &Pipeline, stage: Stage, r: usize, c: usize) -> String {
    if stage.columns_are_keys() {
        format!(
            "“{}” → “{}”: {} {}",
            name(p, r),
            name(p, c),
            stage_name(stage),
            value(p, stage, r, c)
        )
    } else {
        format!(
            "{}[{r}, {c}] (“{}”) = {}",
            stage_name(stage),
            name(p, r),
            value(p, stage, r, c)
        )
    }
}

/// The trace of a selection through the layer, in words.
pub fn trace(p: &Pipeline, selection: &Selection) -> String {
    let i = selection.row;
    let output = format!(
        "output row {i} = Σ_j w_{i}j · v_j (head 0; the {} heads are concatenated, then ·W_o)",
        p.heads()
    );
    let cell = selection
        .cell
        .map(|(stage, r, c)| {
            format!(
                " {}[{r}, {c}] = {}.",
                stage_name(stage),
                value(p, stage, r, c)
            )
        })
        .unwrap_or_default();
    match selection.key {
        Some(j) => {
            let masked = if p.is_masked(j) {
                format!("yes (key {j} ≥ valid_len {}: score → −10⁶)", p.valid())
            } else {
                "no".to_string()
            };
            let uniform = if p.valid() == 0 {
                " (every key is masked, so the row is uniform, 1/n)"
            } else {
                ""
            };
            format!(
                "query “{}” (row {i}) · key “{}” (row {j}): score {}, masked? {masked}, weight {}{uniform}; {output}.{cell}",
                name(p, i),
                name(p, j),
                value(p, Stage::Scores, i, j),
                value(p, Stage::Weights, i, j),
            )
        }
        None => {
            let strongest = p
                .strongest_key(i)
                .map(|(j, w)| {
                    format!(
                        " Head 0's largest weight in row {i} is on key “{}” (row {j}): {}.",
                        name(p, j),
                        format_number(f64::from(w))
                    )
                })
                .unwrap_or_default();
            format!(
                "query “{}” (row {i}):{cell}{strongest} {output}.",
                name(p, i)
            )
        }
    }
}

/// Which projections are in use, in words.
pub fn projection_text(p: &Pipeline) -> String {
    let s = &p.settings;
    match s.mode {
        ProjectionMode::Random => format!(
            "Projections: untrained, Glorot-uniform W_q, W_k, W_v, W_o (each d × d), seed {}.",
            s.seed
        ),
        ProjectionMode::Identity => "Projections: identity, Q = K = V = Z (and W_o = I).".into(),
        ProjectionMode::Offset => format!(
            "Projections: the offset head, W_q rotates each pair j by δ·ω_j (δ = {}), times the sharpness κ = {}; W_k = W_v = W_o = I. This panel applies it to the sentence's Z, tokens included; the attention panel above draws it on P alone.",
            s.delta,
            s.beta
        ),
    }
}

/// The panel's summary: projections, shapes, heads, the mask and the measured row sums.
pub fn summary(p: &Pipeline) -> String {
    let (n, d, h, dh) = (p.n(), p.d(), p.heads(), p.head_dim());
    let shapes = format!(
        "{} is {n} × {d}. h = {h} heads of d_h = {dh} columns; the figure follows head 0: Q, K and V are its {n} × {dh} slices, the scores QKᵀ/√{dh} and the weights are {n} × {n}, weights·V is {n} × {dh}; the output concatenates the {h} heads ({n} × {d}) and multiplies by W_o.",
        z_formula(p)
    );
    let mask = match p.settings.valid_len {
        None => "No mask: every key is valid.".to_string(),
        Some(0) => format!(
            "valid_len = 0: every key's score is set to −10⁶, so a row's scores are all equal and its weights are uniform (1/{n})."
        ),
        Some(v) => format!(
            "valid_len = {v}: {} score −10⁶ (as in d2l's masked_softmax), so {} 0.",
            if v + 1 == n {
                format!("key {v} gets")
            } else {
                format!("keys {v}…{} get", n - 1)
            },
            if v + 1 == n {
                "its weight is"
            } else {
                "their weights are"
            }
        ),
    };
    let error = p.row_sum_error();
    let rows = format!(
        "Rows of the weights {} (measured max |Σ_j w_ij − 1| over all {h} heads: {error:.1e}).",
        if error < 1e-4 {
            "sum to 1"
        } else {
            "do NOT sum to 1"
        }
    );
    let position = match p.settings.position.encoding {
        Encoding::Rope => " RoPE: the scores use Q and K rotated row by row by their positions (Q, K as drawn are before the rotation).",
        Encoding::Alibi => " ALiBi: the scores include head 0's bias m·(j − i), and keys after the query get −10⁶ (causal).",
        Encoding::T5 => " T5: the scores include a bias per bucket of j − i (seeded, untrained).",
        Encoding::Shaw => " Shaw: the scores include q_i·a^K_clip(j−i)/√d_h, and the output adds Σ_j w_ij a^V_clip(j−i).",
        _ => "",
    };
    format!(
        "{} {shapes}{position} {mask} {rows} Colours: each signed matrix on its own blue–white–red scale from −max to +max |value| (in its label); weights on viridis from 0 to 1.",
        projection_text(p)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::layer::Projections;
    use crate::math::pipeline::PipelineSettings;

    fn pipeline(mode: ProjectionMode, valid_len: Option<usize>) -> Pipeline {
        let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
            .split(' ')
            .map(String::from)
            .collect();
        let settings = PipelineSettings {
            d: 32,
            base: 10000.0,
            delta: 1,
            positional_encoding: true,
            scale_embeddings: true,
            mode,
            seed: 7,
            beta: 1.0,
            heads: 4,
            valid_len,
            position: crate::math::position::PositionScheme::absolute(),
        };
        let projections = Projections::of_mode(mode, 32, 7, 10000.0, 1, 1.0);
        Pipeline::compute(tokens, settings, &projections).expect("a layer")
    }

    #[test]
    fn labels_state_shapes() {
        let p = pipeline(ProjectionMode::Random, Some(3));
        assert_eq!(stage_label(&p, Stage::Z).0, "Z = X·√d + P");
        assert!(stage_label(&p, Stage::Z).1.starts_with("8×32 (n×d), ±"));
        assert!(stage_label(&p, Stage::Q).1.starts_with("8×8 (n×d_h)"));
        assert_eq!(
            stage_label(&p, Stage::Masked).1,
            "8×8 (n×n), keys ≥ 3 → −10⁶"
        );
        assert!(legend(&p).contains("d_h = 8"));
    }

    #[test]
    fn trace_names_query_key_and_mask() {
        let p = pipeline(ProjectionMode::Random, Some(3));
        let s = Selection::at(Stage::Weights, 2, 4, None);
        let text = trace(&p, &s);
        assert!(text.starts_with("query “like” (row 2) · key “oranges” (row 4): score "));
        assert!(text.contains("masked? yes (key 4 ≥ valid_len 3"));
        assert!(text.contains("weight 0;"), "{text}");
        assert!(text.contains("output row 2 = Σ_j w_2j · v_j"));
        let s = Selection::at(Stage::Q, 1, 0, None);
        assert!(trace(&p, &s).contains("Q[1, 0] = "));
        assert!(cell_text(&p, Stage::Masked, 0, 5).ends_with("−10⁶"));
    }

    #[test]
    fn summaries() {
        let p = pipeline(ProjectionMode::Random, None);
        let text = summary(&p);
        assert!(text.contains("Glorot-uniform W_q, W_k, W_v, W_o (each d × d), seed 7."));
        assert!(text.contains("No mask"));
        assert!(text.contains("sum to 1"));
        let p = pipeline(ProjectionMode::Identity, Some(0));
        let text = summary(&p);
        assert!(text.contains("Q = K = V = Z"));
        assert!(text.contains("uniform (1/8)"));
        assert!(text.contains("sum to 1"), "{text}");
        let p = pipeline(ProjectionMode::Offset, Some(7));
        let text = summary(&p);
        assert!(
            text.contains("δ·ω_j (δ = 1), times the sharpness κ = 1"),
            "{text}"
        );
        assert!(text.contains("valid_len = 7: key 7 gets score −10⁶"));
    }
}
