//! What the pipeline panel ("What exactly are Q, K and V?") says: its stage labels, the legend,
//! the hover trace, the tooltip and the summary. Pure text, tested natively; the sentences and
//! labels are messages of `locales/computed` (`readout-pipeline-…`, `figure-pipeline-…`). The
//! figure's layout is [`figure`], what a pointer picks on it [`selection`]; the view (`view.rs`,
//! with `fit.rs` fitting the figure to its room) draws and wires.

use self::selection::Selection;
use crate::math::layer::ProjectionMode;
use crate::math::pipeline::{Pipeline, Stage};
use crate::model::present::format_number;

pub mod figure;
pub mod selection;
pub mod takeaway;
#[cfg(target_arch = "wasm32")]
mod view;
#[cfg(target_arch = "wasm32")]
pub use view::mount;
#[cfg(target_arch = "wasm32")]
mod fit;

/// The summary of an empty sentence.
pub fn empty_summary() -> String {
    crate::message!("readout-pipeline-no-tokens")
}

/// The trace read-out before a hover.
pub fn trace_hint() -> String {
    crate::message!("readout-pipeline-trace-hint")
}

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
/// colour scale; last, the second line without the scale, for a stage too narrow for it (the
/// legend says how every matrix is scaled).
pub fn stage_label(p: &Pipeline, stage: Stage) -> (String, String, String) {
    let (rows, columns) = p.shape(stage);
    let title = match stage {
        Stage::Z => z_formula(p).to_string(),
        Stage::Q => "Q = Z·W_q".to_string(),
        Stage::K => "K = Z·W_k".to_string(),
        Stage::V => "V = Z·W_v".to_string(),
        Stage::Scores => match p.settings.position.encoding {
            Encoding::Rope => "(RQ)(RK)ᵀ/√d_h",
            Encoding::Alibi => "QKᵀ/√d_h + m(j−i)",
            Encoding::T5 => "QKᵀ/√d_h + b(j−i)",
            Encoding::Shaw => "Q(K+aᴷ)ᵀ/√d_h",
            _ => "QKᵀ/√d_h",
        }
        .to_string(),
        Stage::Masked => crate::message!("figure-pipeline-stage-masked"),
        Stage::Weights => "softmax".to_string(),
        Stage::Mixed => crate::message!("figure-pipeline-stage-mixed"),
        Stage::Output => crate::message!("figure-pipeline-stage-output"),
    };
    let symbols = match stage {
        Stage::Z | Stage::Output => "n×d",
        Stage::Q | Stage::K | Stage::V | Stage::Mixed => "n×d_h",
        _ => "n×n",
    };
    let scale = match stage {
        Stage::Weights => "0…1".to_string(),
        Stage::Masked if p.valid() < p.n() => {
            crate::message!("figure-pipeline-scale-masked", valid = p.valid())
        }
        Stage::Masked => crate::message!("figure-pipeline-scale-no-mask"),
        _ => format!("±{}", short(p.max_abs(stage))),
    };
    (
        title,
        crate::message!(
            "figure-pipeline-stage-shape",
            rows = rows,
            columns = columns,
            symbols = symbols,
            scale = scale
        ),
        crate::message!(
            "figure-pipeline-stage-size",
            rows = rows,
            columns = columns,
            symbols = symbols
        ),
    )
}

/// The line under the figure.
pub fn legend(p: &Pipeline) -> String {
    // Z's √d is taught at the scaling step of the lesson, after this one: the legend points there
    // (step 0: Z has no √d).
    let step = if p.settings.scale_embeddings {
        crate::model::panels::PanelId::Scaling
            .lesson_position()
            .map_or(0, |k| k + 1)
    } else {
        0
    };
    crate::message!(
        "figure-pipeline-legend",
        heads = p.heads(),
        head_dim = p.head_dim(),
        sqrt_d_step = step
    )
}

fn name(p: &Pipeline, i: usize) -> &str {
    p.tokens.get(i).map_or("?", String::as_str)
}

fn stage_name(stage: Stage) -> String {
    match stage {
        Stage::Z => "Z".to_string(),
        Stage::Q => "Q".to_string(),
        Stage::K => "K".to_string(),
        Stage::V => "V".to_string(),
        Stage::Scores => crate::message!("readout-pipeline-stage-score"),
        Stage::Masked => crate::message!("readout-pipeline-stage-masked-score"),
        Stage::Weights => "w".to_string(),
        Stage::Mixed => crate::message!("readout-pipeline-stage-mixed"),
        Stage::Output => crate::message!("readout-pipeline-stage-output"),
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
        crate::message!(
            "readout-pipeline-cell-pair",
            query = name(p, r),
            key = name(p, c),
            stage = stage_name(stage),
            value = value(p, stage, r, c)
        )
    } else {
        crate::message!(
            "readout-pipeline-cell",
            stage = stage_name(stage),
            row = r,
            column = c,
            token = name(p, r),
            value = value(p, stage, r, c)
        )
    }
}

/// The trace of a selection through the layer, in words.
pub fn trace(p: &Pipeline, selection: &Selection) -> String {
    let i = selection.row;
    let output = crate::message!("readout-pipeline-trace-output", row = i, heads = p.heads());
    let cell = selection
        .cell
        .map(|(stage, r, c)| {
            crate::message!(
                "readout-pipeline-trace-cell",
                stage = stage_name(stage),
                row = r,
                column = c,
                value = value(p, stage, r, c)
            )
        })
        .unwrap_or_default();
    match selection.key {
        Some(j) => {
            let masked = if p.is_masked(j) {
                crate::message!(
                    "readout-pipeline-trace-masked-yes",
                    key = j,
                    valid = p.valid()
                )
            } else {
                crate::message!("readout-pipeline-trace-masked-no")
            };
            let uniform = if p.valid() == 0 {
                crate::message!("readout-pipeline-trace-uniform")
            } else {
                String::new()
            };
            crate::message!(
                "readout-pipeline-trace-pair",
                query = name(p, i),
                row = i,
                key = name(p, j),
                key_row = j,
                score = value(p, Stage::Scores, i, j),
                masked = masked,
                weight = value(p, Stage::Weights, i, j),
                uniform = uniform,
                output = output,
                cell = cell
            )
        }
        None => {
            let strongest = p
                .strongest_key(i)
                .map(|(j, w)| {
                    crate::message!(
                        "readout-pipeline-trace-strongest",
                        row = i,
                        key = name(p, j),
                        key_row = j,
                        weight = format_number(f64::from(w))
                    )
                })
                .unwrap_or_default();
            crate::message!(
                "readout-pipeline-trace-query",
                query = name(p, i),
                row = i,
                cell = cell,
                strongest = strongest,
                output = output
            )
        }
    }
}

/// Which projections are in use, in words.
pub fn projection_text(p: &Pipeline) -> String {
    let s = &p.settings;
    match s.mode {
        ProjectionMode::Random => {
            crate::message!("readout-pipeline-projection-random", seed = s.seed)
        }
        ProjectionMode::Identity => crate::message!("readout-pipeline-projection-identity"),
        ProjectionMode::Offset => crate::message!(
            "readout-pipeline-projection-offset",
            delta = s.delta,
            beta = s.beta.to_string()
        ),
    }
}

/// The panel's summary: projections, shapes, heads, the mask and the measured row sums.
pub fn summary(p: &Pipeline) -> String {
    let (n, d, h, dh) = (p.n(), p.d(), p.heads(), p.head_dim());
    let shapes = crate::message!(
        "readout-pipeline-shapes",
        z = z_formula(p),
        n = n,
        d = d,
        heads = h,
        head_dim = dh
    );
    let mask = match p.settings.valid_len {
        None => crate::message!("readout-pipeline-mask-none"),
        Some(0) => crate::message!("readout-pipeline-mask-all", n = n),
        Some(v) if v + 1 == n => crate::message!("readout-pipeline-mask-one", valid = v),
        Some(v) => crate::message!("readout-pipeline-mask-keys", valid = v, last = n - 1),
    };
    let error = p.row_sum_error();
    let rows = if error < 1e-4 {
        crate::message!(
            "readout-pipeline-rows-sum",
            heads = h,
            error = format!("{error:.1e}")
        )
    } else {
        crate::message!(
            "readout-pipeline-rows-do-not-sum",
            heads = h,
            error = format!("{error:.1e}")
        )
    };
    let position = match p.settings.position.encoding {
        Encoding::Rope => crate::message!("readout-pipeline-position-rope"),
        Encoding::Alibi => crate::message!("readout-pipeline-position-alibi"),
        Encoding::T5 => crate::message!("readout-pipeline-position-t5"),
        Encoding::Shaw => crate::message!("readout-pipeline-position-shaw"),
        _ => String::new(),
    };
    crate::message!(
        "readout-pipeline-summary",
        projection = projection_text(p),
        shapes = shapes,
        position = position,
        mask = mask,
        rows = rows
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
        // A narrow stage's second line without its scale.
        assert_eq!(stage_label(&p, Stage::Q).2, "8×8 (n×d_h)");
        // Z's √d points to the step that teaches it (the scaling step, after this one).
        let scaling = crate::model::panels::PanelId::Scaling.lesson_position();
        let pipeline_step = crate::model::panels::PanelId::Pipeline.lesson_position();
        assert!(scaling > pipeline_step);
        let step = scaling.map_or(0, |k| k + 1);
        assert!(legend(&p).ends_with(&format!("Why Z scales X by √d: step {step}.")));
        let mut unscaled = p.clone();
        unscaled.settings.scale_embeddings = false;
        assert!(!legend(&unscaled).contains('√'));
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
