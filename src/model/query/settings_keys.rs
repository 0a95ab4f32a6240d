//! The panel settings' keys (`text`, `valid`, `pe`, `sqrtd`, `heads`, `enc`, `scale`, …): read
//! from a link, a field or `peLab.set` into [`PanelSettings`], and written back. Settings that
//! follow another value when left alone (the mask, the number of heads, the complexity panel's n
//! and d) are `None` until set, and are then absent from the link.

use super::values::{parse_integer, parse_switch, shorten, switch_text, UrlName};
use crate::math::layer::{ProjectionMode, DEFAULT_BETA, MAX_BETA};
use crate::math::position::{Encoding, MAX_ALIBI_HEADS, MAX_CLIP, MAX_LEARNED_MAX};
use crate::math::stacking::{PositionInjection, MAX_LAYERS};
use crate::math::tokens::{count_tokens, MAX_TOKENS};
use crate::model::settings::*;

/// The URL/API names of the panel settings, in the order they are written to a link.
pub const SETTINGS_KEYS: [&str; 31] = [
    "text", "valid", "pe", "sqrtd", "heads", "lens", "perm", "simi", "simk", "simview", "cn", "cd",
    "k", "ti", "tj", "proj", "seed", "beta", "tile", "enc", "aheads", "clip", "lmax", "scale",
    "ctx", "layers", "skip", "ln", "causal", "inject", "trange",
];

/// Whether `key` is one of the panel settings (the long names of `peLab.set` included).
pub fn is_settings_key(key: &str) -> bool {
    SETTINGS_KEYS.contains(&key) || canonical_key(key) != key
}

/// `peLab.set` also accepts descriptive names: `sentence`, `validLen`, `positionalEncoding`, ….
fn canonical_key(key: &str) -> &str {
    match key {
        "sentence" => "text",
        "validLen" => "valid",
        "positionalEncoding" => "pe",
        "scaleEmbeddings" => "sqrtd",
        "encoding" => "enc",
        "alibiHeads" => "aheads",
        "shawClip" => "clip",
        "learnedMax" => "lmax",
        "extensionScale" => "scale",
        "trainingContext" => "ctx",
        "layerNorm" => "ln",
        "injection" => "inject",
        "t5Range" => "trange",
        "validLens" => "lens",
        "permutation" => "perm",
        "simPosition" => "simi",
        "simMaxOffset" => "simk",
        "simView" => "simview",
        "complexityN" => "cn",
        "complexityD" => "cd",
        "kernel" => "k",
        "tokenI" => "ti",
        "tokenJ" => "tj",
        "projection" => "proj",
        "tiled" => "tile",
        other => other,
    }
}

impl PanelSettings {
    /// Parses the panel settings among `key=value` pairs (other keys are ignored: they belong to
    /// [`super::params::Params`] or to a course page), for an encoding of dimension `d`.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        d: usize,
    ) -> (PanelSettings, Vec<String>) {
        let mut lesson = PanelSettings {
            d: d.max(1),
            ..PanelSettings::default()
        };
        let mut notices = Vec::new();
        // The mask and the token pair are checked against the sentence, which may come later in
        // the link.
        let mut pair_updates = Vec::new();
        for (key, value) in pairs {
            if !is_settings_key(key) {
                continue;
            }
            if matches!(canonical_key(key), "valid" | "ti" | "tj") {
                pair_updates.push((key, value));
            } else {
                lesson.apply(key, value, &mut notices);
            }
        }
        for (key, value) in pair_updates {
            lesson.apply(key, value, &mut notices);
        }
        notices.extend(lesson.clamp());
        (lesson, notices)
    }

    /// Applies one textual update and clamps. Unknown keys are reported.
    pub fn update(&mut self, key: &str, value: &str) -> Vec<String> {
        let mut notices = Vec::new();
        if !is_settings_key(key) {
            notices.push(format!("Unknown parameter '{}' ignored.", shorten(key)));
            return notices;
        }
        self.apply(key, value, &mut notices);
        notices.extend(self.clamp());
        notices
    }

    fn apply(&mut self, key: &str, value: &str, notices: &mut Vec<String>) {
        let key = canonical_key(key);
        match key {
            "text" => {
                let mut text: String = value.chars().take(MAX_TEXT_CHARS).collect();
                if text.len() < value.len() {
                    notices.push(format!(
                        "The sentence is longer than {MAX_TEXT_CHARS} characters; it was cut."
                    ));
                }
                // No control characters in a field or a link.
                text = text
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                let words = count_tokens(&text);
                if words > MAX_TOKENS {
                    notices.push(format!(
                        "The sentence has {words} words; the attention panels use the first {MAX_TOKENS}."
                    ));
                }
                self.text = text;
            }
            "valid" => {
                let trimmed = value.trim();
                if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("all") {
                    self.valid_len = None;
                } else if let Some(v) =
                    parse_integer("valid_len", value, 0.0, MAX_TOKENS as f64, notices)
                {
                    let tokens = self.token_count();
                    if v as usize > tokens {
                        notices.push(format!(
                            "valid_len = {v} is more than the {tokens} tokens; using all of them (no mask)."
                        ));
                        self.valid_len = None;
                    } else {
                        self.valid_len = Some(v as usize);
                    }
                }
            }
            "pe" => {
                if let Some(b) = parse_switch("pe", value, notices) {
                    self.positional_encoding = b;
                    if b && self.encoding == Encoding::None {
                        self.encoding = Encoding::Sinusoidal;
                    }
                }
            }
            "sqrtd" => {
                if let Some(b) = parse_switch("sqrtd", value, notices) {
                    self.scale_embeddings = b;
                }
            }
            "scale" => self.apply_extension_scale(value, notices),
            "enc" => match Encoding::from_query(value) {
                Some(encoding) => {
                    self.encoding = encoding;
                    self.positional_encoding = encoding != Encoding::None;
                }
                None => notices.push(format!(
                    "enc = '{}' is not sinusoidal, rope, alibi, t5, shaw, learned or none; keeping {}.",
                    shorten(value),
                    self.encoding_in_use().to_query()
                )),
            },
            "aheads" => {
                if let Some(v) = parse_integer("aheads", value, 1.0, MAX_ALIBI_HEADS as f64, notices)
                {
                    self.alibi_heads = v as usize;
                }
            }
            "clip" => {
                if let Some(v) = parse_integer("clip", value, 1.0, MAX_CLIP as f64, notices) {
                    self.clip = v as usize;
                }
            }
            "lmax" => {
                if let Some(v) = parse_integer("lmax", value, 1.0, MAX_LEARNED_MAX as f64, notices)
                {
                    self.learned_max = v as usize;
                }
            }
            "ctx" => {
                if let Some(v) = parse_integer(
                    "ctx",
                    value,
                    MIN_TRAINING_CONTEXT as f64,
                    MAX_TRAINING_CONTEXT as f64,
                    notices,
                ) {
                    self.training_context = v as usize;
                }
            }
            "layers" => {
                if let Some(v) = parse_integer("layers", value, 0.0, MAX_LAYERS as f64, notices) {
                    self.layers = v as usize;
                }
            }
            "skip" => {
                if let Some(b) = parse_switch("skip", value, notices) {
                    self.skip = b;
                }
            }
            "ln" => {
                if let Some(b) = parse_switch("ln", value, notices) {
                    self.layer_norm = b;
                }
            }
            "causal" => {
                if let Some(b) = parse_switch("causal", value, notices) {
                    self.causal = b;
                }
            }
            "inject" => match PositionInjection::from_query(value) {
                Some(injection) => self.injection = injection,
                None => notices.push(format!(
                    "inject = '{}' is not once, every or none; keeping {}.",
                    shorten(value),
                    self.injection.to_query()
                )),
            },
            "trange" => {
                if let Some(v) = parse_integer(
                    "trange",
                    value,
                    MIN_T5_RANGE as f64,
                    MAX_T5_RANGE as f64,
                    notices,
                ) {
                    self.t5_range = v as usize;
                }
            }
            "heads" => {
                if let Some(h) = parse_integer("heads", value, 1.0, self.d as f64, notices) {
                    self.heads = Some(h as usize);
                }
            }
            "lens" => self.apply_lens(value, notices),
            "perm" => {
                let trimmed = value.trim();
                self.permutation = match trimmed.to_ascii_lowercase().as_str() {
                    "swap" => PermutationChoice::Swap,
                    "none" | "identity" | "" => PermutationChoice::Identity,
                    other => match other.parse::<u64>() {
                        Ok(seed) => PermutationChoice::Shuffle(seed),
                        Err(_) => {
                            notices.push(format!(
                                "perm = '{}' is not swap, none or a shuffle seed (a whole number); keeping {}.",
                                shorten(value),
                                permutation_text(self.permutation)
                            ));
                            self.permutation
                        }
                    },
                };
            }
            "simi" => {
                if let Some(v) = parse_integer("simi", value, 0.0, SIM_POSITION_MAX as f64, notices)
                {
                    self.sim_position = v as usize;
                }
            }
            "simk" => {
                if let Some(v) =
                    parse_integer("simk", value, 1.0, SIM_MAX_OFFSET_LIMIT as f64, notices)
                {
                    self.sim_max_offset = v as usize;
                }
            }
            "simview" => match SimilarityView::from_query(value) {
                Some(view) => self.sim_view = view,
                None => notices.push(format!(
                    "simview = '{}' is not gram or dist; keeping {}.",
                    shorten(value),
                    self.sim_view.to_query()
                )),
            },
            "cn" => {
                if let Some(v) = parse_integer("cn", value, 1.0, COMPLEXITY_N_MAX as f64, notices) {
                    self.complexity_n = Some(v as usize);
                }
            }
            "cd" => {
                if let Some(v) = parse_integer("cd", value, 1.0, COMPLEXITY_D_MAX as f64, notices) {
                    self.complexity_d = Some(v as usize);
                }
            }
            "k" => {
                if let Some(v) = parse_integer("k", value, 1.0, KERNEL_MAX as f64, notices) {
                    self.kernel = v as usize;
                }
            }
            "proj" => match ProjectionMode::from_query(value) {
                Some(mode) => self.projection = mode,
                None => notices.push(format!(
                    "proj = '{}' is not random, identity or offset; keeping {}.",
                    shorten(value),
                    self.projection.to_query()
                )),
            },
            "seed" => {
                if let Some(v) = parse_integer("seed", value, 0.0, MAX_SEED as f64, notices) {
                    self.seed = v as u64;
                }
            }
            "beta" => match crate::model::decimal::parse_decimal(value.trim()) {
                Some(v) => {
                    let clamped = v.clamp(0.0, MAX_BETA);
                    if clamped != v {
                        notices.push(format!(
                            "beta = {} is outside 0…{MAX_BETA}; using {clamped}.",
                            shorten(value)
                        ));
                    }
                    self.beta = clamped;
                }
                _ => notices.push(format!(
                    "beta = '{}' is not a number; keeping {}.",
                    shorten(value),
                    self.beta
                )),
            },
            "tile" => {
                if let Some(b) = parse_switch("tile", value, notices) {
                    self.show_tile = b;
                }
            }
            "ti" | "tj" => {
                let last = self.token_count().saturating_sub(1);
                if let Some(v) = parse_integer(key, value, 0.0, last as f64, notices) {
                    if key == "ti" {
                        self.token_pair.0 = v as usize;
                    } else {
                        self.token_pair.1 = v as usize;
                    }
                }
            }
            _ => {}
        }
    }

    /// `scale` is the context-extension factor s ≥ 1, and only that: the √d switch is `sqrtd`
    /// (one key, one meaning; `scale=0` is clamped to 1 with a notice like any other value).
    fn apply_extension_scale(&mut self, value: &str, notices: &mut Vec<String>) {
        let trimmed = value.trim();
        match crate::model::decimal::parse_decimal(trimmed) {
            Some(v) => {
                let clamped = v.clamp(1.0, MAX_EXTENSION_SCALE);
                if clamped != v {
                    notices.push(format!(
                        "scale = {} is outside 1…{MAX_EXTENSION_SCALE} (the context is extended s times); using {clamped}.",
                        shorten(value)
                    ));
                }
                self.extension_scale = clamped;
            }
            _ => notices.push(format!(
                "scale = '{}' is not a number; keeping {}.",
                shorten(value),
                self.extension_scale
            )),
        }
    }

    fn apply_lens(&mut self, value: &str, notices: &mut Vec<String>) {
        let parts: Vec<&str> = value
            .split([',', ' ', ';'])
            .filter(|s| !s.trim().is_empty())
            .collect();
        if parts.len() != 2 {
            notices.push(format!(
                "lens = '{}' must be two valid lengths such as 3,2; keeping {},{}.",
                shorten(value),
                self.batch_lens[0],
                self.batch_lens[1]
            ));
            return;
        }
        for (slot, part) in parts.iter().enumerate() {
            if let Some(v) = parse_integer(
                &format!("valid_lens[{slot}]"),
                part,
                0.0,
                BATCH_SEQUENCE_LEN as f64,
                notices,
            ) {
                self.batch_lens[slot] = v as usize;
            }
        }
    }

    /// The settings as URL pairs: those left to follow something else are absent (a link then
    /// follows too). Values are raw text, to be URL-encoded by the caller.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("text", self.text.clone())];
        if let Some(v) = self.valid_len {
            pairs.push(("valid", v.to_string()));
        }
        pairs.push(("pe", switch_text(self.positional_encoding).into()));
        pairs.push(("sqrtd", switch_text(self.scale_embeddings).into()));
        if self.encoding != Encoding::Sinusoidal {
            pairs.push(("enc", self.encoding.to_query().into()));
        }
        if let Some(h) = self.heads {
            pairs.push(("heads", h.to_string()));
        }
        pairs.push((
            "lens",
            format!("{},{}", self.batch_lens[0], self.batch_lens[1]),
        ));
        pairs.push(("perm", permutation_text(self.permutation)));
        pairs.push(("simi", self.sim_position.to_string()));
        pairs.push(("simk", self.sim_max_offset.to_string()));
        pairs.push(("simview", self.sim_view.to_query().into()));
        if let Some(n) = self.complexity_n {
            pairs.push(("cn", n.to_string()));
        }
        if let Some(d) = self.complexity_d {
            pairs.push(("cd", d.to_string()));
        }
        pairs.push(("k", self.kernel.to_string()));
        pairs.push(("ti", self.token_pair.0.to_string()));
        pairs.push(("tj", self.token_pair.1.to_string()));
        pairs.push(("proj", self.projection.to_query().into()));
        pairs.push(("seed", self.seed.to_string()));
        if self.projection == ProjectionMode::Offset || self.beta != DEFAULT_BETA {
            pairs.push(("beta", format!("{}", self.beta)));
        }
        if self.show_tile {
            pairs.push(("tile", "1".into()));
        }
        let defaults = PanelSettings::default();
        let numbers: [(&'static str, usize, usize); 6] = [
            ("aheads", self.alibi_heads, defaults.alibi_heads),
            ("clip", self.clip, defaults.clip),
            ("lmax", self.learned_max, defaults.learned_max),
            ("ctx", self.training_context, defaults.training_context),
            ("layers", self.layers, defaults.layers),
            ("trange", self.t5_range, defaults.t5_range),
        ];
        for (key, value, default) in numbers {
            if value != default {
                pairs.push((key, value.to_string()));
            }
        }
        if self.extension_scale != defaults.extension_scale {
            pairs.push(("scale", format!("{}", self.extension_scale)));
        }
        for (key, value) in [
            ("skip", self.skip),
            ("ln", self.layer_norm),
            ("causal", self.causal),
        ] {
            if value {
                pairs.push((key, "1".into()));
            }
        }
        if self.injection != PositionInjection::Once {
            pairs.push(("inject", self.injection.to_query().into()));
        }
        pairs
    }
}

/// The order panel's permutation as a link writes it: `none`, `swap`, or the shuffle's seed.
pub fn permutation_text(permutation: PermutationChoice) -> String {
    match permutation {
        PermutationChoice::Identity => "none".into(),
        PermutationChoice::Swap => "swap".into(),
        PermutationChoice::Shuffle(seed) => seed.to_string(),
    }
}
