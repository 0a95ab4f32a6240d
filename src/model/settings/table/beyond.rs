//! The settings of the encodings beyond the chapter: ALiBi's heads, Shaw's clipping distance, the
//! learned table's length, context extension's training length and factor, the stacking panel's
//! depth and switches, T5's range and the pretrained model's position table.

use super::{set_name, Row};
use crate::math::position::{MAX_ALIBI_HEADS, MAX_CLIP, MAX_LEARNED_MAX};
use crate::math::stacking::MAX_LAYERS;
use crate::model::panels::PanelId;
use crate::model::query::values::UrlName;
use crate::model::settings::controls::{extension_slider, training_context_slider};
use crate::model::settings::menu_words::INJECTION_OPTIONS;
use crate::model::settings::row::{field, Control, MenuOf, SliderOf, Write};
use crate::model::settings::*;

/// Their rows, in the order a link writes them.
pub(super) const ROWS: &[Row] = &[
    Row::integer(
        "aheads",
        1,
        MAX_ALIBI_HEADS as i64,
        |s| Some(s.alibi_heads as i64),
        |s, h| s.alibi_heads = h as usize,
    )
    .long(&["alibiHeads"])
    .written(Write::Changed)
    .slider(
        "aheads-range",
        "aheads-number",
        SliderOf::Steps(|h| crate::message!("label-slider-alibi-heads", value = h)),
    )
    .words(
        Some("alibi-heads-h"),
        "heads <var>H</var>",
        "ALiBi heads H, exact value",
    )
    .in_panel(PanelId::Alibi)
    .view(&[field("alibiHeads")])
    .doc("ALiBi: the heads H whose slopes are used (head h of a layer uses slope h)"),
    Row::integer(
        "clip",
        1,
        MAX_CLIP as i64,
        |s| Some(s.clip as i64),
        |s, k| s.clip = k as usize,
    )
    .long(&["shawClip"])
    .written(Write::Changed)
    .slider(
        "clip-range",
        "clip-number",
        SliderOf::Steps(|k| crate::message!("label-slider-clipping-distance", value = k)),
    )
    .words(
        Some("shaw-clipping-distance-k"),
        "clipping distance <var>k</var>",
        "clipping distance k, exact value",
    )
    .in_panel(PanelId::Shaw)
    .view(&[field("clip")])
    .doc("Shaw: the clipping distance k"),
    Row::integer(
        "lmax",
        1,
        MAX_LEARNED_MAX as i64,
        |s| Some(s.learned_max as i64),
        |s, l| s.learned_max = l as usize,
    )
    .long(&["learnedMax"])
    .written(Write::Changed)
    .slider(
        "lmax-range",
        "lmax-number",
        SliderOf::Steps(|l| crate::message!("label-slider-table-length", value = l)),
    )
    .words(
        Some("learned-lmax-rows-of-the"),
        "<var>L</var><sub>max</sub> <small>rows of the table</small>",
        "table length L_max, exact value",
    )
    .view(&[field("learnedMax")])
    .doc(
        "the learned table's length L_max; in the attention panels, positions ≥ L_max have \
        no row and get nothing added",
    ),
    Row::integer(
        "ctx",
        MIN_TRAINING_CONTEXT as i64,
        MAX_TRAINING_CONTEXT as i64,
        |s| Some(s.training_context as i64),
        |s, l| s.training_context = l as usize,
    )
    .long(&["trainingContext"])
    .written(Write::Changed)
    .slider(
        "ctx-range",
        "ctx-number",
        SliderOf::Own(training_context_slider),
    )
    .words(
        Some("extension-training-length-l-log"),
        "training length <var>L</var> <small>log scale</small>",
        "training length L, exact value",
    )
    .view(&[field("trainingContext")])
    .doc("context extension panel: the training length L"),
    Row::integer(
        "layers",
        0,
        MAX_LAYERS as i64,
        |s| Some(s.layers as i64),
        |s, l| s.layers = l as usize,
    )
    .written(Write::Changed)
    .slider(
        "layers-range",
        "layers-number",
        SliderOf::Steps(|l| crate::message!("label-slider-layers", value = l)),
    )
    .words(
        Some("stacking-layers"),
        "layers",
        "number of layers, exact value",
    )
    .view(&[field("layers")])
    .doc("stacking panel: the depth"),
    Row::integer(
        "trange",
        MIN_T5_RANGE as i64,
        MAX_T5_RANGE as i64,
        |s| Some(s.t5_range as i64),
        |s, r| s.t5_range = r as usize,
    )
    .long(&["t5Range"])
    .written(Write::Changed)
    .slider(
        "trange-range",
        "trange-number",
        SliderOf::Steps(|r| crate::message!("label-slider-relative-distances", value = r)),
    )
    .words(
        Some("t5-range-relative-distances-shown"),
        "range <small>relative distances shown, ±</small>",
        "range of relative distances, exact value",
    )
    .in_panel(PanelId::T5)
    .view(&[field("t5Range")])
    .doc("T5 panel: the relative distances −range…range shown"),
    // `scale` is the context-extension factor s ≥ 1, and only that: the √d switch is `sqrtd`
    // (one key, one meaning; `scale=0` is clamped to 1 with a notice like any other value).
    Row::decimal(
        "scale",
        (1.0, MAX_EXTENSION_SCALE),
        // A message of locales/computed (its short id): the notice's reason.
        crate::model::messages::short_id(
            <crate::model::messages::Computed as crate::model::messages::Resource>::IDS,
            "notice-why-extension-scale",
        ),
        |s| s.extension_scale,
        |s, scale| s.extension_scale = scale,
    )
    .long(&["extensionScale"])
    .written(Write::Changed)
    .slider(
        "scale-range",
        "scale-number",
        SliderOf::Own(extension_slider),
    )
    .words(
        Some("extension-scale-s-extended-length"),
        "scale <var>s</var> <small>extended length ÷ training length</small>",
        "scale factor s, exact value",
    )
    .view(&[field("extensionScale")])
    .doc("context extension panel: the factor s"),
    Row::switch("skip", |s| s.skip, |s, on| s.skip = on)
        .written(Write::Changed)
        .control(Control::Check("stack-skip"))
        .check_words(
            "stacking-skip-connections-x-attention",
            "skip connections (<var>X</var> + attention(<var>X</var>))",
        )
        .view(&[field("skip")])
        .doc("stacking panel: residual connections"),
    Row::switch("ln", |s| s.layer_norm, |s, on| s.layer_norm = on)
        .long(&["layerNorm"])
        .written(Write::Changed)
        .control(Control::Check("stack-ln"))
        .check_words(
            "stacking-layernorm-after-each-layer",
            "LayerNorm after each layer",
        )
        .view(&[field("layerNorm")])
        .doc("stacking panel: LayerNorm after each layer"),
    Row::switch("causal", |s| s.causal, |s, on| s.causal = on)
        .written(Write::Changed)
        .control(Control::Check("stack-causal"))
        .check_words("stacking-causal-mask", "causal mask")
        .view(&[field("causal")])
        .doc("stacking panel: the causal mask"),
    Row::name(
        "inject",
        &["once", "every", "none"],
        |s| s.injection.to_query(),
        |s, name| set_name(&mut s.injection, name),
    )
    .long(&["injection"])
    .written(Write::Changed)
    .control(Control::Menu("stack-inject", MenuOf::Page))
    .menu_words(
        "stacking-p-is-added",
        "<var>P</var> is added",
        INJECTION_OPTIONS,
    )
    .view(&[field("injection")])
    .doc("stacking panel: where P enters (`every`: after every layer)"),
    // The pretrained panel's model with its trained position table, or with its rows set to zero.
    Row::switch(
        "ptable",
        |s| s.position_table,
        |s, on| s.position_table = on,
    )
    .long(&["positionTable"])
    .written(Write::Changed)
    .control(Control::Check("pretrained-ptable"))
    .check_words(
        "pretrained-add-the-trained-position",
        "add the trained position table",
    )
    .view(&[field("positionTable")])
    .doc(
        "pretrained panel: `1` (default) runs all-MiniLM-L6-v2 with its trained position \
        table, `0` with the table's rows set to zero",
    ),
];
