//! The controls of the settings that are more than one step per whole number: the mask's slider
//! (its range follows the sentence), the complexity panel's (they follow the global n and d), the
//! decimal and log-scale sliders, and the menus whose options come from the state.

use super::{divisors, PanelSettings};
use super::{COMPLEXITY_D_MAX, COMPLEXITY_N_MAX, KERNEL_MAX};
use super::{MAX_EXTENSION_SCALE, MAX_TRAINING_CONTEXT, MIN_TRAINING_CONTEXT};
use crate::math::layer::MAX_BETA;
use crate::math::tokens::MAX_TOKENS;
use crate::model::controls::widgets::{integer_slider, MenuValue, SliderValue};
use crate::model::params::Params;

/// The offset head's sharpness κ slider (URL key `beta`): 0…16 in quarter steps (the numeric
/// field takes up to the limit).
pub const BETA_SLIDER_MAX: f64 = 16.0;
pub const BETA_SLIDER_STEP: f64 = 0.25;
/// The scale factor's slider goes to 64 (the numeric field takes up to the limit).
pub const SCALE_SLIDER_MAX: f64 = 64.0;

/// `valid`: 0 … the number of tokens (all of them: no mask).
pub(super) fn valid_slider(settings: &PanelSettings, _: &Params) -> SliderValue {
    let n_tokens = settings.tokens().len();
    let (value, spoken) = match settings.effective_valid_len() {
        Some(v) => (
            v,
            crate::message!("label-slider-valid-len", valid = v, tokens = n_tokens),
        ),
        None => (
            n_tokens,
            crate::message!("label-slider-valid-len-all", tokens = n_tokens),
        ),
    };
    integer_slider("valid", 0, n_tokens.min(MAX_TOKENS), value, spoken)
}

/// The complexity panel's n (`SIZE = 0`, `cn`) or d (`SIZE = 1`, `cd`): the global one until set.
pub(super) fn complexity_slider<const SIZE: usize>(
    settings: &PanelSettings,
    params: &Params,
) -> SliderValue {
    let (n, d, _) = settings.complexity(params.n, params.d);
    if SIZE == 0 {
        integer_slider("cn", 1, COMPLEXITY_N_MAX, n, format!("n = {n}"))
    } else {
        integer_slider("cd", 1, COMPLEXITY_D_MAX, d, format!("d = {d}"))
    }
}

/// The CNN's kernel size k beside the complexity panel's n and d.
pub(super) fn kernel_slider(settings: &PanelSettings, params: &Params) -> SliderValue {
    let (_, _, k) = settings.complexity(params.n, params.d);
    integer_slider(
        "k",
        1,
        KERNEL_MAX,
        k,
        crate::message!("label-slider-kernel-size", k = k),
    )
}

/// The offset head's sharpness κ: quarter steps to [`BETA_SLIDER_MAX`], the field to the limit.
pub(super) fn sharpness_slider(settings: &PanelSettings, _: &Params) -> SliderValue {
    let beta = settings.beta;
    SliderValue {
        key: "beta",
        min: 0.0,
        max: BETA_SLIDER_MAX,
        step: BETA_SLIDER_STEP,
        position: beta.min(BETA_SLIDER_MAX),
        number_min: 0.0,
        number_max: MAX_BETA,
        text: format!("{beta}"),
        valuetext: crate::message!("label-slider-sharpness", beta = format!("{beta}")),
    }
}

/// The context-extension factor s: whole steps to [`SCALE_SLIDER_MAX`], the field to the limit.
pub(super) fn extension_slider(settings: &PanelSettings, _: &Params) -> SliderValue {
    let scale = settings.extension_scale;
    SliderValue {
        key: "scale",
        min: 1.0,
        max: SCALE_SLIDER_MAX,
        step: 1.0,
        position: scale.min(SCALE_SLIDER_MAX),
        number_min: 1.0,
        number_max: MAX_EXTENSION_SCALE,
        text: format!("{scale}"),
        valuetext: crate::message!("label-slider-scale-factor", scale = format!("{scale}")),
    }
}

/// The training length L on log2 of the length: one step doubles it.
pub(super) fn training_context_slider(settings: &PanelSettings, _: &Params) -> SliderValue {
    let length = settings.training_context;
    SliderValue {
        key: "ctx",
        min: (MIN_TRAINING_CONTEXT as f64).log2(),
        max: (MAX_TRAINING_CONTEXT as f64).log2(),
        step: 1.0,
        position: (length as f64).log2(),
        number_min: MIN_TRAINING_CONTEXT as f64,
        number_max: MAX_TRAINING_CONTEXT as f64,
        text: length.to_string(),
        valuetext: crate::message!("label-slider-training-length", length = length),
    }
}

/// The numbers of heads d allows, with the width of each head.
pub(super) fn heads_menu(settings: &PanelSettings) -> MenuValue {
    let d = settings.d();
    MenuValue {
        options: divisors(d)
            .into_iter()
            .map(|h| (h.to_string(), format!("{h} (d/h = {})", d / h)))
            .collect(),
        value: settings.heads().to_string(),
    }
}

/// The first (`SLOT = 0`, `ti`) or second (`SLOT = 1`, `tj`) token of the add-vs-concatenate
/// panel, chosen among the sentence's tokens.
pub(super) fn token_menu<const SLOT: usize>(settings: &PanelSettings) -> MenuValue {
    let chosen = if SLOT == 0 {
        settings.token_pair.0
    } else {
        settings.token_pair.1
    };
    MenuValue {
        options: settings
            .tokens()
            .iter()
            .enumerate()
            .map(|(i, t)| (i.to_string(), format!("{i}: {t}")))
            .collect(),
        value: chosen.to_string(),
    }
}

/// The batch example's two lengths, each 0 … [`super::BATCH_SEQUENCE_LEN`].
pub(super) fn batch_lens(settings: &PanelSettings) -> [usize; 2] {
    settings.batch_lens
}
