//! What every control of the page shows, computed from the state: each slider's range, step,
//! position, exact value and spoken value; the fields, boxes and menus. `index.html` repeats the
//! sliders' defaults so that the page shows them before the WebAssembly starts (a native test
//! holds them to these values); from the first frame on they are all set from here.

use super::state::State;
use crate::math::layer::MAX_BETA;
use crate::math::position::{MAX_ALIBI_HEADS, MAX_CLIP, MAX_LEARNED_MAX};
use crate::math::stacking::MAX_LAYERS;
use crate::math::tokens::MAX_TOKENS;
use crate::model::params::{
    base_from_slider, format_base, slider_from_base, BASE_MAX, BASE_MIN, D_MIN, N_MIN,
};
use crate::model::query::values::UrlName;
use crate::model::settings::{
    divisors, COMPLEXITY_D_MAX, COMPLEXITY_N_MAX, KERNEL_MAX, MAX_EXTENSION_SCALE, MAX_T5_RANGE,
    MAX_TRAINING_CONTEXT, MIN_T5_RANGE, MIN_TRAINING_CONTEXT, SIM_MAX_OFFSET_LIMIT,
    SIM_POSITION_MAX,
};

/// Steps of the base slider per decade: equal steps in log10(base) of 0.05, so that one arrow key
/// changes the base by a visible, round amount (10000 → 11200 → 12600 … with the 3 significant
/// digits of `base_from_slider`; 10000 → 8910 down). The numeric field takes any base.
pub const BASE_SLIDER_STEPS_PER_DECADE: f64 = 20.0;
/// One step of the base slider, in log10(base).
pub const BASE_SLIDER_STEP: f64 = 1.0 / BASE_SLIDER_STEPS_PER_DECADE;

/// The offset head's sharpness κ slider (URL key `beta`): 0…16 in quarter steps (the numeric field takes up to the limit).
pub const BETA_SLIDER_MAX: f64 = 16.0;
pub const BETA_SLIDER_STEP: f64 = 0.25;

/// A slider and its exact numeric field (`<key>-range`, `<key>-number`).
#[derive(Debug, Clone, PartialEq)]
pub struct SliderValue {
    pub key: &'static str,
    /// The slider's range (for `base`: log10 of the base).
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// The slider's position.
    pub position: f64,
    /// The numeric field's range (for `base`: the base itself).
    pub number_min: f64,
    pub number_max: f64,
    /// The exact value, as the numeric field shows it.
    pub text: String,
    /// What a screen reader says.
    pub valuetext: String,
}

impl SliderValue {
    /// A slider with one value (min = max) cannot be moved.
    pub fn disabled(&self) -> bool {
        self.min == self.max
    }
}

/// The n slider is logarithmic (log2 of n), so that the chapter's n = 60 sits near the middle of
/// its track rather than at 3% of it; its positions are this fine (every n to 1448 has its own),
/// and the keyboard steps n itself ([`n_after_key`]). The numeric field takes any n.
pub const N_SLIDER_STEP: f64 = 0.001;

/// The n slider's position for `n`.
pub fn slider_from_n(n: usize) -> f64 {
    ((n.max(1) as f64).log2() / N_SLIDER_STEP).round() * N_SLIDER_STEP
}

/// The n a position of the n slider stands for.
pub fn n_from_slider(position: f64) -> usize {
    let n = 2f64.powf(position).round();
    if n.is_finite() && n >= 1.0 {
        n as usize
    } else {
        1
    }
}

/// The n after a key on the n slider: an arrow key changes n by about 5% (at least 1), Page Up and
/// Page Down double and halve it, within N_MIN…`n_max`; `None` for other keys (Home and End keep
/// the slider's own behaviour).
pub fn n_after_key(n: usize, n_max: usize, key: &str) -> Option<usize> {
    let nf = n as f64;
    let next = match key {
        "ArrowUp" | "ArrowRight" => (nf * 1.05).round().max(nf + 1.0),
        "ArrowDown" | "ArrowLeft" => (nf / 1.05).round().min(nf - 1.0),
        "PageUp" => nf * 2.0,
        "PageDown" => (nf / 2.0).round().min(nf - 1.0),
        _ => return None,
    };
    Some((next.max(N_MIN as f64) as usize).min(n_max.max(N_MIN)))
}

/// The scale factor's slider goes to 64 (the numeric field takes up to the limit).
pub const SCALE_SLIDER_MAX: f64 = 64.0;

/// The value a slider's position stands for, as `peLab.set` takes it: the base, n and the
/// training length have log-scale sliders; the others show their value.
pub fn value_from_slider(key: &str, position: f64, raw: &str) -> String {
    match key {
        "base" => format_base(base_from_slider(position)),
        "ctx" => format!("{}", 2f64.powf(position).round()),
        "n" => n_from_slider(position).to_string(),
        _ => raw.to_string(),
    }
}

/// A `<select>`'s options (value, label) and the chosen value.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuValue {
    pub options: Vec<(String, String)>,
    pub value: String,
}

/// Everything the controls show.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlValues {
    pub sliders: Vec<SliderValue>,
    /// The curve columns, "6, 7, 8, 9" (counted from 1 with `index=1`).
    pub columns: String,
    pub text: String,
    pub positional_encoding: bool,
    pub scale_embeddings: bool,
    /// `?textbook=1`: the textbook float32 P.
    pub textbook: bool,
    /// `?index=1`: positions and columns counted from 1 (the Julia edition).
    pub one_based: bool,
    pub batch_lens: [usize; 2],
    /// The batch example's valid_lens fields: 0…sequence length.
    pub batch_len_max: usize,
    pub heads: MenuValue,
    pub sim_view: String,
    pub token_i: MenuValue,
    pub token_j: MenuValue,
    pub theme: &'static str,
    pub present: bool,
    /// The attention panels' projections (`random`, `identity`, `offset`) and seed.
    pub projection: &'static str,
    pub seed: String,
    /// Draw np.tile's wrong maps beside the right ones.
    pub show_tile: bool,
    /// The attention panels' position family (`enc`).
    pub encoding: &'static str,
    /// The stacking experiment's switches and where P enters.
    pub skip: bool,
    pub layer_norm: bool,
    pub causal: bool,
    pub injection: &'static str,
}

fn integer_slider(
    key: &'static str,
    min: usize,
    max: usize,
    value: usize,
    spoken: String,
) -> SliderValue {
    SliderValue {
        key,
        min: min as f64,
        max: max as f64,
        step: 1.0,
        position: value as f64,
        number_min: min as f64,
        number_max: max as f64,
        text: value.to_string(),
        valuetext: spoken,
    }
}

/// The values of every control for `state`.
pub fn control_values(state: &State) -> ControlValues {
    let (p, lesson) = (&state.params, &state.settings);
    let max_delta = p.n as i64 - 1;
    let positions = p.valid_positions();
    let last_position = positions.end.saturating_sub(1).max(positions.start);
    let max_pair = (p.d / 2).saturating_sub(1);
    let tokens = lesson.tokens();
    let n_tokens = tokens.len();
    let valid = lesson.effective_valid_len().unwrap_or(n_tokens);
    let (cn, cd, k) = lesson.complexity(p.n, p.d);
    let valid_text = match lesson.effective_valid_len() {
        Some(v) => format!("valid_len = {v} of {n_tokens} keys"),
        None => format!("valid_len = all {n_tokens} keys"),
    };
    let sliders = vec![
        integer_slider("d", D_MIN, p.limits.d_max, p.d, format!("d = {}", p.d)),
        SliderValue {
            key: "n",
            min: slider_from_n(N_MIN),
            max: slider_from_n(p.limits.n_max),
            step: N_SLIDER_STEP,
            position: slider_from_n(p.n),
            number_min: N_MIN as f64,
            number_max: p.limits.n_max as f64,
            text: p.n.to_string(),
            valuetext: format!("n = {}", p.n),
        },
        SliderValue {
            key: "base",
            // On a whole step, so that every position of the slider is one the browser accepts.
            // (Divided, not multiplied by the step: 0.3, not 0.30000000000000004.)
            min: (slider_from_base(BASE_MIN) * BASE_SLIDER_STEPS_PER_DECADE).floor()
                / BASE_SLIDER_STEPS_PER_DECADE,
            max: slider_from_base(BASE_MAX),
            step: BASE_SLIDER_STEP,
            position: slider_from_base(p.base),
            number_min: BASE_MIN,
            number_max: BASE_MAX,
            text: format_base(p.base),
            valuetext: format!("base = {}", format_base(p.base)),
        },
        SliderValue {
            key: "delta",
            min: -max_delta as f64,
            max: max_delta as f64,
            step: 1.0,
            position: p.delta as f64,
            number_min: -max_delta as f64,
            number_max: max_delta as f64,
            text: p.delta.to_string(),
            valuetext: format!("delta = {}", p.delta),
        },
        integer_slider("pair", 0, max_pair, p.pair, format!("pair = {}", p.pair)),
        integer_slider(
            "pos",
            positions.start,
            last_position,
            p.position,
            format!("pos = {}", p.position),
        ),
        integer_slider("valid", 0, n_tokens.min(MAX_TOKENS), valid, valid_text),
        integer_slider(
            "simi",
            0,
            SIM_POSITION_MAX,
            lesson.sim_position,
            format!("position i = {}", lesson.sim_position),
        ),
        integer_slider(
            "simk",
            1,
            SIM_MAX_OFFSET_LIMIT,
            lesson.sim_max_offset,
            format!("largest offset k = {}", lesson.sim_max_offset),
        ),
        integer_slider("cn", 1, COMPLEXITY_N_MAX, cn, format!("n = {cn}")),
        integer_slider("cd", 1, COMPLEXITY_D_MAX, cd, format!("d = {cd}")),
        integer_slider("k", 1, KERNEL_MAX, k, format!("kernel size k = {k}")),
        SliderValue {
            key: "beta",
            min: 0.0,
            max: BETA_SLIDER_MAX,
            step: BETA_SLIDER_STEP,
            position: lesson.beta.min(BETA_SLIDER_MAX),
            number_min: 0.0,
            number_max: MAX_BETA,
            text: format!("{}", lesson.beta),
            valuetext: format!("sharpness κ = {}", lesson.beta),
        },
        integer_slider(
            "aheads",
            1,
            MAX_ALIBI_HEADS,
            lesson.alibi_heads,
            format!("ALiBi heads H = {}", lesson.alibi_heads),
        ),
        integer_slider(
            "clip",
            1,
            MAX_CLIP,
            lesson.clip,
            format!("clipping distance k = {}", lesson.clip),
        ),
        integer_slider(
            "lmax",
            1,
            MAX_LEARNED_MAX,
            lesson.learned_max,
            format!("table length L_max = {}", lesson.learned_max),
        ),
        SliderValue {
            key: "scale",
            min: 1.0,
            max: SCALE_SLIDER_MAX,
            step: 1.0,
            position: lesson.extension_scale.min(SCALE_SLIDER_MAX),
            number_min: 1.0,
            number_max: MAX_EXTENSION_SCALE,
            text: format!("{}", lesson.extension_scale),
            valuetext: format!("scale factor s = {}", lesson.extension_scale),
        },
        SliderValue {
            key: "ctx",
            // log2 of the length: one step doubles it.
            min: (MIN_TRAINING_CONTEXT as f64).log2(),
            max: (MAX_TRAINING_CONTEXT as f64).log2(),
            step: 1.0,
            position: (lesson.training_context as f64).log2(),
            number_min: MIN_TRAINING_CONTEXT as f64,
            number_max: MAX_TRAINING_CONTEXT as f64,
            text: lesson.training_context.to_string(),
            valuetext: format!("training length L = {}", lesson.training_context),
        },
        integer_slider(
            "layers",
            0,
            MAX_LAYERS,
            lesson.layers,
            format!("{} layers", lesson.layers),
        ),
        integer_slider(
            "trange",
            MIN_T5_RANGE,
            MAX_T5_RANGE,
            lesson.t5_range,
            format!("relative distances ±{}", lesson.t5_range),
        ),
    ];
    let d = lesson.d();
    let token_options: Vec<(String, String)> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| (i.to_string(), format!("{i}: {t}")))
        .collect();
    ControlValues {
        sliders,
        columns: p
            .columns
            .iter()
            .map(|&c| crate::model::present::column_label(c, p.first_position).to_string())
            .collect::<Vec<_>>()
            .join(", "),
        text: lesson.text.clone(),
        positional_encoding: lesson.positional_encoding,
        scale_embeddings: lesson.scale_embeddings,
        textbook: p.textbook,
        one_based: p.first_position != 0,
        batch_lens: lesson.batch_lens,
        batch_len_max: crate::model::settings::BATCH_SEQUENCE_LEN,
        heads: MenuValue {
            options: divisors(d)
                .into_iter()
                .map(|h| (h.to_string(), format!("{h} (d/h = {})", d / h)))
                .collect(),
            value: lesson.heads().to_string(),
        },
        sim_view: lesson.sim_view.to_query().to_string(),
        token_i: MenuValue {
            options: token_options.clone(),
            value: lesson.token_pair.0.to_string(),
        },
        token_j: MenuValue {
            options: token_options,
            value: lesson.token_pair.1.to_string(),
        },
        theme: state.view.theme.to_query(),
        present: state.view.present,
        projection: lesson.projection.to_query(),
        seed: lesson.seed.to_string(),
        show_tile: lesson.show_tile,
        encoding: lesson.encoding_in_use().to_query(),
        skip: lesson.skip,
        layer_norm: lesson.layer_norm,
        causal: lesson.causal,
        injection: lesson.injection.to_query(),
    }
}

/// The global sliders' values in a line, for the collapsed bar of a phone:
/// "d 32 · n 60 · base 10000 · δ 1".
pub fn global_summary(values: &ControlValues) -> String {
    super::tables::GLOBAL_SLIDERS
        .iter()
        .filter_map(|key| {
            let slider = values.sliders.iter().find(|s| s.key == *key)?;
            let name = if *key == "delta" { "δ" } else { key };
            Some(format!("{name} {}", slider.text))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::Msg;

    #[test]
    fn the_summary_names_the_global_values() {
        let mut state = State::default();
        state.update(Msg::set("delta", "-3"));
        assert_eq!(
            global_summary(&control_values(&state)),
            "d 32 · n 60 · base 10000 · δ -3"
        );
    }

    #[test]
    fn defaults_come_from_the_state() {
        let values = control_values(&State::default());
        let d = &values.sliders[0];
        assert_eq!(
            (d.key, d.min, d.max, d.text.as_str()),
            ("d", 1.0, 1024.0, "32")
        );
        let base = values.sliders.iter().find(|s| s.key == "base").unwrap();
        assert_eq!(base.text, "10000");
        assert!((base.position - 4.0).abs() < 1e-12);
        // The base slider: whole steps from 0.3 to 6, one step a visible, round change.
        assert_eq!((base.min, base.max, base.step), (0.3, 6.0, 0.05));
        let step = |x: f64| crate::model::params::base_from_slider(x);
        assert_eq!(
            (step(4.0 + base.step), step(4.0 - base.step)),
            (11200.0, 8910.0)
        );
        assert_eq!(step(base.min), crate::model::params::BASE_MIN);
        let delta = values.sliders.iter().find(|s| s.key == "delta").unwrap();
        assert_eq!((delta.min, delta.max), (-59.0, 59.0));
        assert_eq!(values.columns, "6, 7, 8, 9");
        assert_eq!(values.heads.value, "4");
        assert_eq!(values.token_i.options.len(), 8);
        assert_eq!(values.theme, "auto");
    }

    #[test]
    fn the_n_slider_is_logarithmic() {
        let state = State::default();
        let values = control_values(&state);
        let n = values.sliders.iter().find(|s| s.key == "n").unwrap();
        assert_eq!(
            (n.number_min, n.number_max, n.text.as_str()),
            (1.0, 2048.0, "60")
        );
        assert_eq!((n.min, n.max), (0.0, 11.0));
        // n = 60 a little past the middle of the track (it was at 3% of a linear one).
        let at = (n.position - n.min) / (n.max - n.min);
        assert!((0.53..0.54).contains(&at), "{at}");
        // Each n to 1448 has a position of its own that gives it back.
        for k in 1..=1448 {
            assert_eq!(n_from_slider(slider_from_n(k)), k);
        }
        assert_eq!(value_from_slider("n", n.position, ""), "60");
        assert_eq!(value_from_slider("n", n.max, ""), "2048");
        // The keyboard: about 5% per arrow, at least 1, doubling per page, inside the range.
        let step = |n, key| n_after_key(n, 2048, key);
        assert_eq!(step(60, "ArrowUp"), Some(63));
        assert_eq!(step(60, "ArrowLeft"), Some(57));
        assert_eq!(step(1, "ArrowUp"), Some(2));
        assert_eq!(step(2, "ArrowDown"), Some(1));
        assert_eq!(step(1, "ArrowDown"), Some(1));
        assert_eq!(step(60, "PageUp"), Some(120));
        assert_eq!(step(60, "PageDown"), Some(30));
        assert_eq!(step(2000, "PageUp"), Some(2048));
        assert_eq!(step(60, "Home"), None);
    }

    #[test]
    fn one_position_disables_the_offset() {
        let mut state = State::default();
        state.update(Msg::set("n", "1"));
        let values = control_values(&state);
        let delta = values.sliders.iter().find(|s| s.key == "delta").unwrap();
        assert!(delta.disabled());
        let keys: Vec<&str> = values.sliders.iter().map(|s| s.key).collect();
        assert_eq!(
            keys,
            [
                "d", "n", "base", "delta", "pair", "pos", "valid", "simi", "simk", "cn", "cd", "k",
                "beta", "aheads", "clip", "lmax", "scale", "ctx", "layers", "trange"
            ]
        );
    }
}
