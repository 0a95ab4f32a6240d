//! The attention layer's settings beyond the sentence: its projections, their seed, the offset
//! head's sharpness κ, and the heads panel's comparison with d2l's `np.tile`.

use super::{set_name, Row};
use crate::math::layer::{ProjectionMode, MAX_BETA};
use crate::model::query::values::UrlName;
use crate::model::settings::controls::sharpness_slider;
use crate::model::settings::menu_words::PROJECTION_OPTIONS;
use crate::model::settings::row::{Control, MenuOf, SliderOf, TextOf, Write};
use crate::model::settings::*;

/// Their rows, in the order a link writes them.
pub(super) const ROWS: &[Row] = &[
    Row::name(
        "proj",
        &["random", "identity", "offset"],
        |s| s.projection.to_query(),
        |s, name| set_name(&mut s.projection, name),
    )
    .long(&["projection"])
    .control(Control::Menu("attn-proj", MenuOf::Page))
    .menu_words(
        "attention-projections-wq-wk-wv",
        "projections <var>W</var><sub>q</sub>, <var>W</var><sub>k</sub>, <var>W</var><sub>v</sub>",
        PROJECTION_OPTIONS,
    )
    .doc(
        "the attention layer's projections: `random` (default: an untrained layer, \
        Glorot-uniform W_q, W_k, W_v, W_o as Flux's `Dense`), `identity` (Q = K = V = Z, \
        with a warning: the diagonal dominates), `offset` (one head that attends from i to \
        i + δ)",
    ),
    Row::integer(
        "seed",
        0,
        MAX_SEED as i64,
        |s| Some(s.seed as i64),
        |s, seed| s.seed = seed as u64,
    )
    .control(Control::Text("attn-seed", TextOf::Link))
    .doc("the seed of the random projections (a whole number; \"Re-draw\" takes the next)"),
    // The offset head's sharpness κ: written whenever the offset head is in use.
    Row::decimal("beta", (0.0, MAX_BETA), "", |s| s.beta, |s, b| s.beta = b)
        .written(Write::ChangedOr(|s| s.projection == ProjectionMode::Offset))
        .slider("beta-range", "beta-number", SliderOf::Own(sharpness_slider))
        .words(
            Some("attention-sharpness-of-the-offset"),
            "κ <small>sharpness of the offset head</small>",
            "sharpness kappa, exact value",
        )
        .doc(
            "the offset head's sharpness κ (default 12, where the head on P alone puts a mean \
        weight of 0.69 on i + δ at d = 32)",
        ),
    Row::switch("tile", |s| s.show_tile, |s, on| s.show_tile = on)
        .long(&["tiled"])
        .written(Write::Changed)
        .control(Control::Check("heads-tile"))
        .check_words(
            "heads-show-np-tile-buggy",
            "show <code>np.tile</code> (buggy) beside",
        )
        .doc(
            "`1`: the multi-head panel also draws what d2l's original `np.tile` of valid_lens gave",
        ),
];
