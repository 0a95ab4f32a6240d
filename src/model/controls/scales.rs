//! The sliders of the encoding parameters, and the scales of those that are not one step per
//! whole number: n on log2 of n (with keys that step n itself, `params::NStep`), the base on
//! log10 of the base, the training length on log2 of the length.

use super::widgets::{integer_slider, SliderValue};
use crate::model::params::{
    base_from_slider, format_base, slider_from_base, Params, BASE_MAX, BASE_MIN, D_MIN, N_MIN,
};

/// Steps of the base slider per decade: equal steps in log10(base) of 0.05, so that one arrow key
/// changes the base by a visible, round amount (10000 → 11200 → 12600 … with the 3 significant
/// digits of `base_from_slider`; 10000 → 8910 down). The numeric field takes any base.
pub const BASE_SLIDER_STEPS_PER_DECADE: f64 = 20.0;
/// One step of the base slider, in log10(base).
pub const BASE_SLIDER_STEP: f64 = 1.0 / BASE_SLIDER_STEPS_PER_DECADE;

/// The n slider is logarithmic (log2 of n), so that the chapter's n = 60 sits near the middle of
/// its track rather than at 3% of it; its positions are this fine (every n to 1448 has its own),
/// and the keyboard steps n itself ([`NStep`](crate::model::params::NStep)). The numeric field
/// takes any n.
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

/// d, one step per whole number up to the backend's limit. The parameters' sliders take the
/// parameters twice (as the settings their rows read, and as the global parameters every row's
/// slider is given).
pub fn d_slider(p: &Params, _: &Params) -> SliderValue {
    integer_slider("d", D_MIN, p.limits.d_max, p.d, format!("d = {}", p.d))
}

/// The pair of columns j, up to d/2 − 1.
pub fn pair_slider(p: &Params, _: &Params) -> SliderValue {
    let max_pair = (p.d / 2).saturating_sub(1);
    integer_slider("pair", 0, max_pair, p.pair, format!("pair = {}", p.pair))
}

/// The position i, over the positions that have a partner at δ.
pub fn pos_slider(p: &Params, _: &Params) -> SliderValue {
    let positions = p.valid_positions();
    let last_position = positions.end.saturating_sub(1).max(positions.start);
    integer_slider(
        "pos",
        positions.start,
        last_position,
        p.position,
        format!("pos = {}", p.position),
    )
}

/// n on a log2 scale ([`N_SLIDER_STEP`]); the field takes any n up to the backend's limit.
pub fn n_slider(p: &Params, _: &Params) -> SliderValue {
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
    }
}

/// The base on log10 of the base, in [`BASE_SLIDER_STEP`]s; the field takes any base.
pub fn base_slider(p: &Params, _: &Params) -> SliderValue {
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
    }
}

/// δ from −(n − 1) to n − 1.
pub fn delta_slider(p: &Params, _: &Params) -> SliderValue {
    let max_delta = p.n as i64 - 1;
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
    }
}
