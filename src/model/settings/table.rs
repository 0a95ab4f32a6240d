//! The settings table: one row per setting of the attention and encoding panels, in the order a
//! link writes them. A row gives the key, the long name `peLab.set` also accepts, the range and
//! how a value is clamped, when a link writes it, its control (with its element ids) and its
//! fields in `peLab.lesson`. The link's reader and writer (`query::settings_keys`), the controls
//! (`model::controls`, `model::tables`) and `peLab.lesson` ([`LessonView`]) all follow it; the
//! defaults are [`PanelSettings::default`]'s.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::controls::{
    batch_lens, complexity_slider, extension_slider, heads_menu, kernel_slider, sharpness_slider,
    token_menu, training_context_slider, valid_slider,
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
use crate::model::params::Params;
use crate::model::query::values::UrlName;

/// Every panel setting, in the order a link writes them.
pub const SETTINGS: [Row; 32] = [
    Row::own("text", read_text, |s| Some(s.text.clone()))
        .long(&["sentence"])
        .control(Control::LiveText("attn-text"))
        .view(&[
            field("text"),
            field_of("tokens", |s, _| Shown::Texts(s.tokens())),
        ]),
    Row::own("valid", read_valid, |s| s.valid_len.map(|v| v.to_string()))
        .long(&["validLen"])
        .after_sentence()
        .slider("valid-range", "valid-number", SliderOf::Own(valid_slider))
        .view(&[field_of("validLen", |s, _| {
            Shown::Maybe(s.effective_valid_len())
        })]),
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
    .view(&[field("positionalEncoding")]),
    Row::switch(
        "sqrtd",
        |s| s.scale_embeddings,
        |s, on| s.scale_embeddings = on,
    )
    .long(&["scaleEmbeddings"])
    .control(Control::Check("attn-scale"))
    .view(&[field("scaleEmbeddings")]),
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
    .view(&[field("encoding")]),
    Row::integer_to(
        "heads",
        Bound::Fixed(1),
        Bound::Of(|s| s.d() as i64),
        |s| s.heads.map(|h| h as i64),
        |s, h| s.heads = Some(h as usize),
    )
    .control(Control::Menu("heads-select", MenuOf::Own(heads_menu)))
    .view(&[field_of("heads", |s, _| Shown::Count(s.heads()))]),
    Row::own("lens", read_lens, |s| {
        Some(format!("{},{}", s.batch_lens[0], s.batch_lens[1]))
    })
    .long(&["validLens"])
    .control(Control::Lens(["lens0", "lens1"], batch_lens))
    .view(&[field_of("validLens", |s, _| {
        Shown::Counts(s.batch_lens.to_vec())
    })]),
    Row::own("perm", read_permutation, |s| {
        Some(permutation_text(s.permutation))
    })
    .long(&["permutation"])
    .view(&[field("permutation")]),
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
    .view(&[field("simPosition")]),
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
    .view(&[field("simMaxOffset")]),
    Row::name(
        "simview",
        &["gram", "dist"],
        |s| s.sim_view.to_query(),
        |s, name| set_name(&mut s.sim_view, name),
    )
    .long(&["simView"])
    .control(Control::Menu("simview-select", MenuOf::Page))
    .view(&[field("simView")]),
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
    .view(&[field_of("complexityN", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).0)
    })]),
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
    .view(&[field_of("complexityD", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).1)
    })]),
    Row::integer(
        "k",
        1,
        KERNEL_MAX as i64,
        |s| Some(s.kernel as i64),
        |s, k| s.kernel = k as usize,
    )
    .long(&["kernel"])
    .slider("k-range", "k-number", SliderOf::Own(kernel_slider))
    .view(&[field_of("kernel", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).2)
    })]),
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
    .view(&[field("tokenI")]),
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
    .view(&[field("tokenJ")]),
    Row::name(
        "proj",
        &["random", "identity", "offset"],
        |s| s.projection.to_query(),
        |s, name| set_name(&mut s.projection, name),
    )
    .long(&["projection"])
    .control(Control::Menu("attn-proj", MenuOf::Page)),
    Row::integer(
        "seed",
        0,
        MAX_SEED as i64,
        |s| Some(s.seed as i64),
        |s, seed| s.seed = seed as u64,
    )
    .control(Control::Text("attn-seed", TextOf::Link)),
    // The offset head's sharpness κ: written whenever the offset head is in use.
    Row::decimal("beta", (0.0, MAX_BETA), "", |s| s.beta, |s, b| s.beta = b)
        .written(Write::ChangedOr(|s| s.projection == ProjectionMode::Offset))
        .slider("beta-range", "beta-number", SliderOf::Own(sharpness_slider)),
    Row::switch("tile", |s| s.show_tile, |s, on| s.show_tile = on)
        .long(&["tiled"])
        .written(Write::Changed)
        .control(Control::Check("heads-tile")),
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
    .view(&[field("alibiHeads")]),
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
    .view(&[field("clip")]),
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
    .view(&[field("learnedMax")]),
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
    .view(&[field("trainingContext")]),
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
    .view(&[field("layers")]),
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
    .view(&[field("t5Range")]),
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
    .view(&[field("extensionScale")]),
    Row::switch("skip", |s| s.skip, |s, on| s.skip = on)
        .written(Write::Changed)
        .control(Control::Check("stack-skip"))
        .view(&[field("skip")]),
    Row::switch("ln", |s| s.layer_norm, |s, on| s.layer_norm = on)
        .long(&["layerNorm"])
        .written(Write::Changed)
        .control(Control::Check("stack-ln"))
        .view(&[field("layerNorm")]),
    Row::switch("causal", |s| s.causal, |s, on| s.causal = on)
        .written(Write::Changed)
        .control(Control::Check("stack-causal"))
        .view(&[field("causal")]),
    Row::name(
        "inject",
        &["once", "every", "none"],
        |s| s.injection.to_query(),
        |s, name| set_name(&mut s.injection, name),
    )
    .long(&["injection"])
    .written(Write::Changed)
    .control(Control::Menu("stack-inject", MenuOf::Page))
    .view(&[field("injection")]),
    // The pretrained panel's model with its trained position table, or with its rows set to zero.
    Row::switch(
        "ptable",
        |s| s.position_table,
        |s, on| s.position_table = on,
    )
    .long(&["positionTable"])
    .written(Write::Changed)
    .control(Control::Check("pretrained-ptable"))
    .view(&[field("positionTable")]),
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

/// `peLab.lesson`: the panel settings after clamping (the global ones are `peLab.state`), one
/// field per view field of [`SETTINGS`], in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    pub fields: Vec<(&'static str, Shown)>,
}

impl LessonView {
    pub fn new(settings: &PanelSettings, params: &Params) -> LessonView {
        LessonView {
            fields: SETTINGS
                .iter()
                .flat_map(|row| row.view_fields(settings, params))
                .collect(),
        }
    }

    /// The names of its fields, in order.
    pub fn names() -> Vec<&'static str> {
        SETTINGS
            .iter()
            .flat_map(|row| row.view.iter().map(|field| field.name))
            .collect()
    }
}

/// A plain object, as the derived struct it replaces was.
impl Serialize for LessonView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("LessonView", self.fields.len())?;
        for (name, value) in &self.fields {
            object.serialize_field(name, value)?;
        }
        object.end()
    }
}
