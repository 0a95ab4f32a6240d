//! The settings table: one row per setting of the attention and encoding panels, in the order a
//! link writes them. A row gives the key, the long name `peLab.set` also accepts, the range and
//! how a value is clamped, when a link writes it, its control (with its element ids) and its
//! fields in `peLab.lesson`. The link's reader and writer (`query::settings_keys`), the controls
//! (`model::controls`, `model::tables`) and `peLab.lesson` ([`LessonView`]) all follow it; the
//! defaults are [`PanelSettings::default`]'s.

use super::controls::{
    batch_lens, complexity_slider, extension_slider, heads_menu, kernel_slider, sharpness_slider,
    token_menu, training_context_slider, valid_slider,
};
use super::menu_words::{
    ENCODING_OPTIONS, INJECTION_OPTIONS, PROJECTION_OPTIONS, SIMILARITY_VIEW_OPTIONS,
};
use super::read::{read_lens, read_permutation, read_text, read_valid};
use super::row::{
    field, field_of, Bound, Control, MenuOf, Setting, Shown, SliderOf, TextOf, Write,
};
use super::rows::{keys_of, row_named};

/// A row of this table.
type Row = Setting<PanelSettings>;
use super::*;
use crate::math::layer::{ProjectionMode, MAX_BETA};
use crate::math::position::{MAX_ALIBI_HEADS, MAX_CLIP, MAX_LEARNED_MAX};
use crate::math::stacking::MAX_LAYERS;
use crate::model::panels::PanelId;
use crate::model::query::values::UrlName;

/// Every panel setting, in the order a link writes them.
pub const SETTINGS: [Row; 32] = [
    Row::own("text", read_text, |s| Some(s.text.clone()))
        .long(&["sentence"])
        .control(Control::LiveText("attn-text"))
        .view(&[
            field("text"),
            field_of("tokens", |s, _| Shown::Texts(s.tokens())),
        ])
        .doc(
            "the attention panels' sentence (at most 1000 characters; the first 64 words are used)",
        ),
    Row::own("valid", read_valid, |s| s.valid_len.map(|v| v.to_string()))
        .long(&["validLen"])
        .after_sentence()
        .slider("valid-range", "valid-number", SliderOf::Own(valid_slider))
        .words(
            Some("attention-valid-len-keys-it"),
            "<code>valid_len</code> <small>keys ≥ it are masked</small>",
            "valid_len, exact value",
        )
        .view(&[field_of("validLen", |s, _| {
            Shown::Maybe(s.effective_valid_len())
        })])
        .doc("valid_len of the sentence: keys at index ≥ valid_len are masked"),
    Row::switch(
        "pe",
        |s| s.positional_encoding,
        |s, on| {
            s.positional_encoding = on;
            // Turning position on again restores the chapter's P if no family was chosen.
            if on && s.encoding == Encoding::None {
                s.encoding = Encoding::Sinusoidal;
            }
        },
    )
    .long(&["positionalEncoding"])
    .control(Control::Check("attn-pe"))
    .check_words(
        "attention-add-positional-encoding-p",
        "add positional encoding <var>P</var>",
    )
    .view(&[field("positionalEncoding")])
    .doc("add position to the embeddings (`pe=0` is `enc=none`)"),
    Row::switch(
        "sqrtd",
        |s| s.scale_embeddings,
        |s, on| s.scale_embeddings = on,
    )
    .long(&["scaleEmbeddings"])
    .control(Control::Check("attn-scale"))
    .check_words(
        "attention-scale-embeddings-by-d",
        "scale embeddings by √<var>d</var>",
    )
    .view(&[field("scaleEmbeddings")])
    .doc(
        "scale the embeddings by √d (`sqrtd` is the only key for it: `scale` is the \
        context-extension factor)",
    ),
    // The link keeps the family chosen while `pe` is off; the page shows the one in use (`none`).
    Row::name(
        "enc",
        &[
            "sinusoidal",
            "rope",
            "alibi",
            "t5",
            "shaw",
            "learned",
            "none",
        ],
        |s| s.encoding_in_use().to_query(),
        |s, name| {
            let Some(encoding) = Encoding::from_query(name) else {
                return false;
            };
            s.encoding = encoding;
            s.positional_encoding = encoding != Encoding::None;
            true
        },
    )
    .long(&["encoding"])
    .written(Write::Own(|s| {
        (s.encoding != Encoding::Sinusoidal).then(|| s.encoding.to_query().to_string())
    }))
    .control(Control::Menu("attn-enc", MenuOf::Page))
    .menu_words(
        "attention-position-enters-as",
        "position enters as",
        ENCODING_OPTIONS,
    )
    .view(&[field("encoding")])
    .doc(
        "how position enters the attention panels (weights, heads, pipeline, order): \
        `sinusoidal` (default, P added), `rope` (each head's q and k rotated by i·θ_j), \
        `alibi` (m_h·(j − i) added to the scores, with the causal mask ALiBi was defined \
        for), `t5` (a seeded bias per T5 bucket of j − i), `shaw` (seeded a^K, a^V clipped \
        at `clip`), `learned` (a seeded N(0, 0.02²) table E of `lmax` rows added), `none`",
    ),
    Row::integer_to(
        "heads",
        Bound::Fixed(1),
        Bound::Of(|s| s.d() as i64),
        |s| s.heads.map(|h| h as i64),
        |s, h| s.heads = Some(h as usize),
    )
    .control(Control::Menu("heads-select", MenuOf::Own(heads_menu)))
    .view(&[field_of("heads", |s, _| Shown::Count(s.heads()))])
    .doc("number of heads (a divisor of d; otherwise the nearest one, with a notice)"),
    Row::own("lens", read_lens, |s| {
        Some(format!("{},{}", s.batch_lens[0], s.batch_lens[1]))
    })
    .long(&["validLens"])
    .control(Control::Lens(["lens0", "lens1"], batch_lens))
    .view(&[field_of("validLens", |s, _| {
        Shown::Counts(s.batch_lens.to_vec())
    })])
    .doc("valid_lens of the multi-head batch example, e.g. `3,2`"),
    Row::own("perm", read_permutation, |s| {
        Some(permutation_text(s.permutation))
    })
    .long(&["permutation"])
    .view(&[field("permutation")])
    .doc("the order panel's permutation: `none`, `swap` or a shuffle seed"),
    Row::integer(
        "simi",
        0,
        SIM_POSITION_MAX as i64,
        |s| Some(s.sim_position as i64),
        |s, i| s.sim_position = i as usize,
    )
    .long(&["simPosition"])
    .slider(
        "simi-range",
        "simi-number",
        SliderOf::Steps(|i| crate::message!("label-slider-position-i", value = i)),
    )
    .words(
        None,
        "<span data-l10n-id=\"similarity-position-i\">position <var>i</var></span> <small \
        data-l10n-id=\"similarity-of-pi-pi-k\">of p<sub>i</sub>·p<sub>i+k</sub></small>",
        "position i, exact value",
    )
    .view(&[field("simPosition")])
    .doc("similarity panel: position i"),
    Row::integer(
        "simk",
        1,
        SIM_MAX_OFFSET_LIMIT as i64,
        |s| Some(s.sim_max_offset as i64),
        |s, k| s.sim_max_offset = k as usize,
    )
    .long(&["simMaxOffset"])
    .slider(
        "simk-range",
        "simk-number",
        SliderOf::Steps(|k| crate::message!("label-slider-largest-offset", value = k)),
    )
    .words(
        Some("similarity-largest-offset-k"),
        "largest offset <var>k</var>",
        "largest offset k, exact value",
    )
    .view(&[field("simMaxOffset")])
    .doc("similarity panel: the largest offset k"),
    Row::name(
        "simview",
        &["gram", "dist"],
        |s| s.sim_view.to_query(),
        |s, name| set_name(&mut s.sim_view, name),
    )
    .long(&["simView"])
    .control(Control::Menu("simview-select", MenuOf::Page))
    .menu_words("similarity-heatmap", "heatmap", SIMILARITY_VIEW_OPTIONS)
    .view(&[field("simView")])
    .doc("similarity panel: the heatmap's view"),
    // The complexity panel's n and d follow the global ones until set.
    Row::integer(
        "cn",
        1,
        COMPLEXITY_N_MAX as i64,
        |s| s.complexity_n.map(|n| n as i64),
        |s, n| s.complexity_n = Some(n as usize),
    )
    .long(&["complexityN"])
    .slider(
        "cn-range",
        "cn-number",
        SliderOf::Own(complexity_slider::<0>),
    )
    .words(
        Some("complexity-sequence-length-n-this"),
        "sequence length <var>n</var> <small>(this panel)</small>",
        "this panel's sequence length n, exact value",
    )
    .view(&[field_of("complexityN", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).0)
    })])
    .doc("complexity panel: its own n (absent: the global n)"),
    Row::integer(
        "cd",
        1,
        COMPLEXITY_D_MAX as i64,
        |s| s.complexity_d.map(|d| d as i64),
        |s, d| s.complexity_d = Some(d as usize),
    )
    .long(&["complexityD"])
    .slider(
        "cd-range",
        "cd-number",
        SliderOf::Own(complexity_slider::<1>),
    )
    .words(
        Some("complexity-width-d-this-panel"),
        "width <var>d</var> <small>(this panel)</small>",
        "this panel's width d, exact value",
    )
    .view(&[field_of("complexityD", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).1)
    })])
    .doc("complexity panel: its own d (absent: the global d)"),
    Row::integer(
        "k",
        1,
        KERNEL_MAX as i64,
        |s| Some(s.kernel as i64),
        |s, k| s.kernel = k as usize,
    )
    .long(&["kernel"])
    .slider("k-range", "k-number", SliderOf::Own(kernel_slider))
    .words(
        Some("complexity-kernel-k"),
        "kernel <var>k</var>",
        "kernel size k, exact value",
    )
    .view(&[field_of("kernel", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).2)
    })])
    .doc("complexity panel: the CNN's kernel size"),
    Row::integer_to(
        "ti",
        Bound::Fixed(0),
        Bound::Of(last_token),
        |s| Some(s.token_pair.0 as i64),
        |s, i| s.token_pair.0 = i as usize,
    )
    .long(&["tokenI"])
    .after_sentence()
    .control(Control::Menu("ti-select", MenuOf::Own(token_menu::<0>)))
    .view(&[field("tokenI")])
    .doc("add-vs-concatenate panel: the first of its two tokens"),
    Row::integer_to(
        "tj",
        Bound::Fixed(0),
        Bound::Of(last_token),
        |s| Some(s.token_pair.1 as i64),
        |s, j| s.token_pair.1 = j as usize,
    )
    .long(&["tokenJ"])
    .after_sentence()
    .control(Control::Menu("tj-select", MenuOf::Own(token_menu::<1>)))
    .view(&[field("tokenJ")])
    .doc("add-vs-concatenate panel: the second of its two tokens"),
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

/// Sets a named choice if `name` is one of its spellings.
fn set_name<T: UrlName>(choice: &mut T, name: &str) -> bool {
    match T::from_query(name) {
        Some(value) => {
            *choice = value;
            true
        }
        None => false,
    }
}

/// The index of the sentence's last token: the token pair's largest value.
fn last_token(settings: &PanelSettings) -> i64 {
    settings.token_count().saturating_sub(1) as i64
}

/// The row of a key or a long name.
pub fn setting(key: &str) -> Option<&'static Setting> {
    row_named(&SETTINGS, key)
}

/// The keys of [`SETTINGS`], in its order.
pub const SETTINGS_KEYS: [&str; SETTINGS.len()] = keys_of(&SETTINGS);

pub use super::lesson_view::LessonView;
