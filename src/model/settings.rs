//! The state of the attention panels: the sentence, the mask, the toggles, the heads, the
//! permutation, the similarity and complexity settings. Like [`super::params`], untrusted text (a
//! URL, a field, `peLab.set`) becomes a valid state, and every correction is explained by a notice.
//!
//! Short URL keys (see [`SETTINGS_KEYS`]): `text`, `valid`, `pe`, `scale`, `heads`, `lens`, `perm`,
//! `simi`, `simk`, `simview`, `cn`, `cd`, `k`, `ti`, `tj`. Settings that follow another value when
//! left alone (the mask, the number of heads, the complexity panel's n and d) are `None` until set,
//! and are then absent from the link.

use super::params::{parse_integer, shorten, WIDEST_LIMITS};
use crate::math::order::{shuffle, swap_permutation};
use crate::math::position::{
    Encoding, PositionScheme, DEFAULT_ALIBI_HEADS, DEFAULT_CLIP, DEFAULT_LEARNED_MAX,
    MAX_ALIBI_HEADS, MAX_CLIP, MAX_LEARNED_MAX,
};
use crate::math::projection::{ProjectionMode, DEFAULT_BETA, DEFAULT_SEED, MAX_BETA};
use crate::math::stacking::{PositionInjection, MAX_LAYERS};
use crate::math::tokens::{count_tokens, tokenize, DEFAULT_SENTENCE, MAX_TOKENS};

/// The URL/API names of the panel settings, in the order they are written to a link.
pub const SETTINGS_KEYS: [&str; 31] = [
    "text", "valid", "pe", "sqrtd", "heads", "lens", "perm", "simi", "simk", "simview", "cn", "cd",
    "k", "ti", "tj", "proj", "seed", "beta", "tile", "enc", "aheads", "clip", "lmax", "scale",
    "ctx", "layers", "skip", "ln", "causal", "inject", "trange",
];

/// The context-extension factor s when none was chosen, and its limits.
pub const DEFAULT_EXTENSION_SCALE: f64 = 4.0;
pub const MAX_EXTENSION_SCALE: f64 = 1024.0;
/// The training context length L when none was chosen (LLaMA's 2048), and its limits.
pub const DEFAULT_TRAINING_CONTEXT: usize = 2048;
pub const MIN_TRAINING_CONTEXT: usize = 8;
pub const MAX_TRAINING_CONTEXT: usize = 1 << 20;
/// The stacking panel's depth when none was chosen.
pub const DEFAULT_LAYERS: usize = 8;
/// The T5 panel's range of relative distances when none was chosen, and its limits.
pub const DEFAULT_T5_RANGE: usize = 160;
pub const MIN_T5_RANGE: usize = 8;
pub const MAX_T5_RANGE: usize = 1000;

/// The largest seed of the random projections (integers above 2⁵³ would not survive a JavaScript
/// number in `peLab.set`).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A sentence longer than this (in characters) is cut: 64 tokens fit easily.
pub const MAX_TEXT_CHARS: usize = 1000;
/// The number of heads when none was chosen: the divisor of d nearest to 4 (4 at d = 32).
pub const DEFAULT_HEADS: usize = 4;
/// Tokens per sequence of the batch example (the chapter's `num_queries = 4`).
pub const BATCH_SEQUENCE_LEN: usize = 4;
/// The chapter's `valid_lens = [3, 2]`.
pub const DEFAULT_BATCH_LENS: [usize; 2] = [3, 2];
/// What fills a sequence of the batch example that has fewer than four tokens.
pub const PAD_TOKEN: &str = "<pad>";
/// The Stack Exchange answer's p_5.
pub const DEFAULT_SIM_POSITION: usize = 5;
pub const DEFAULT_SIM_MAX_OFFSET: usize = 60;
/// p_i for i up to this (rows of P exist for any i; the GPU encodes i < 8192 exactly).
pub const SIM_POSITION_MAX: usize = 4095;
/// The similarity curve's offsets k = 0 … max: each point is a dot product of two rows.
pub const SIM_MAX_OFFSET_LIMIT: usize = 512;
/// The chapter's kernel size in its figure.
pub const DEFAULT_KERNEL: usize = 3;
pub const KERNEL_MAX: usize = 64;
/// The complexity panel's sliders go as far as the widest backend.
pub const COMPLEXITY_N_MAX: usize = WIDEST_LIMITS.n_max;
pub const COMPLEXITY_D_MAX: usize = WIDEST_LIMITS.d_max;
/// The two tokens of the add-vs-concatenate panel: "3" and "4" of the default sentence.
pub const DEFAULT_TOKEN_PAIR: (usize, usize) = (3, 6);

/// Which permutation the order panel applies to the tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermutationChoice {
    /// Leave every token in place.
    Identity,
    /// The seeds' pair: exchange "3" and "4" ("3 oranges and 4 bananas" ↔ "4 oranges and 3
    /// bananas"); the first and last tokens when the sentence lacks either.
    Swap,
    /// A deterministic shuffle (`order::shuffle`) with this seed.
    Shuffle(u64),
}

impl PermutationChoice {
    /// The URL form: `none`, `swap`, or the shuffle's seed.
    pub fn to_query(&self) -> String {
        match self {
            PermutationChoice::Identity => "none".into(),
            PermutationChoice::Swap => "swap".into(),
            PermutationChoice::Shuffle(seed) => seed.to_string(),
        }
    }
}

/// What the similarity panel's heatmap shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimilarityView {
    /// G = P·Pᵀ: constant diagonals.
    Gram,
    /// ‖p_i − p_j‖: why nearby early rows look alike.
    Distance,
}

impl SimilarityView {
    pub fn to_query(&self) -> &'static str {
        match self {
            SimilarityView::Gram => "gram",
            SimilarityView::Distance => "dist",
        }
    }
}

/// The permutation the order panel uses for a sentence, and how to say what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenPermutation {
    /// Item r is the index of the token that moves to position r (`order::permute_rows`).
    pub permutation: Vec<usize>,
    pub description: String,
}

/// The complete state of the attention panels.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelSettings {
    /// The sentence, as typed (at most [`MAX_TEXT_CHARS`] characters).
    pub text: String,
    /// Keys at index ≥ valid_len are masked; `None`: every key is valid.
    pub valid_len: Option<usize>,
    /// Add P to the embeddings.
    pub positional_encoding: bool,
    /// Multiply the embeddings by √d (the Transformer encoder's rescaling).
    pub scale_embeddings: bool,
    /// Chosen number of heads; `None`: the divisor of d nearest to [`DEFAULT_HEADS`].
    pub heads: Option<usize>,
    /// valid_lens of the batch example's two sequences.
    pub batch_lens: [usize; 2],
    pub permutation: PermutationChoice,
    /// Position i of the similarity curve p_i·p_{i+k}.
    pub sim_position: usize,
    /// Largest offset k of the similarity curve.
    pub sim_max_offset: usize,
    pub sim_view: SimilarityView,
    /// The complexity panel's n and d; `None`: the global n and d.
    pub complexity_n: Option<usize>,
    pub complexity_d: Option<usize>,
    /// CNN kernel size k.
    pub kernel: usize,
    /// The two tokens (indices) of the add-vs-concatenate panel.
    pub token_pair: (usize, usize),
    /// Which W_q, W_k, W_v, W_o the attention panels use.
    pub projection: ProjectionMode,
    /// The seed of the random projections.
    pub seed: u64,
    /// The offset head's sharpness κ (URL key `beta`).
    pub beta: f64,
    /// Draw what d2l's original `np.tile` of valid_lens did beside the right maps.
    pub show_tile: bool,
    /// The position family of the attention panels (`enc`); in use only while
    /// `positional_encoding` is on (see [`PanelSettings::encoding_in_use`]).
    pub encoding: Encoding,
    /// ALiBi: the heads of the model whose slopes are used (`aheads`).
    pub alibi_heads: usize,
    /// Shaw's clipping distance k (`clip`).
    pub clip: usize,
    /// The learned table's length L_max (`lmax`).
    pub learned_max: usize,
    /// Context extension: the factor s (`scale`) and the training length L (`ctx`).
    pub extension_scale: f64,
    pub training_context: usize,
    /// The stacking experiment: depth, residual connections, LayerNorm, causal mask, where P
    /// enters (`layers`, `skip`, `ln`, `causal`, `inject`).
    pub layers: usize,
    pub skip: bool,
    pub layer_norm: bool,
    pub causal: bool,
    pub injection: PositionInjection,
    /// The T5 panel shows relative distances −range … range (`trange`).
    pub t5_range: usize,
    /// The global d the heads were fitted to (not part of a link).
    d: usize,
}

impl Default for PanelSettings {
    fn default() -> Self {
        PanelSettings {
            text: DEFAULT_SENTENCE.to_string(),
            valid_len: None,
            positional_encoding: true,
            scale_embeddings: true,
            heads: None,
            batch_lens: DEFAULT_BATCH_LENS,
            permutation: PermutationChoice::Swap,
            sim_position: DEFAULT_SIM_POSITION,
            sim_max_offset: DEFAULT_SIM_MAX_OFFSET,
            sim_view: SimilarityView::Gram,
            complexity_n: None,
            complexity_d: None,
            kernel: DEFAULT_KERNEL,
            token_pair: DEFAULT_TOKEN_PAIR,
            projection: ProjectionMode::Random,
            seed: DEFAULT_SEED,
            beta: DEFAULT_BETA,
            show_tile: false,
            encoding: Encoding::Sinusoidal,
            alibi_heads: DEFAULT_ALIBI_HEADS,
            clip: DEFAULT_CLIP,
            learned_max: DEFAULT_LEARNED_MAX,
            extension_scale: DEFAULT_EXTENSION_SCALE,
            training_context: DEFAULT_TRAINING_CONTEXT,
            layers: DEFAULT_LAYERS,
            skip: false,
            layer_norm: false,
            causal: false,
            injection: PositionInjection::Once,
            t5_range: DEFAULT_T5_RANGE,
            d: super::params::DEFAULT_D,
        }
    }
}

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
                if let Some(b) = parse_bool("pe", value, notices) {
                    self.positional_encoding = b;
                    if b && self.encoding == Encoding::None {
                        self.encoding = Encoding::Sinusoidal;
                    }
                }
            }
            "sqrtd" => {
                if let Some(b) = parse_bool("sqrtd", value, notices) {
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
                if let Some(b) = parse_bool("skip", value, notices) {
                    self.skip = b;
                }
            }
            "ln" => {
                if let Some(b) = parse_bool("ln", value, notices) {
                    self.layer_norm = b;
                }
            }
            "causal" => {
                if let Some(b) = parse_bool("causal", value, notices) {
                    self.causal = b;
                }
            }
            "inject" => match value.trim().to_ascii_lowercase().as_str() {
                "once" | "input" => self.injection = PositionInjection::Once,
                "every" | "each" | "layer" => self.injection = PositionInjection::EveryLayer,
                "none" | "off" => self.injection = PositionInjection::None,
                _ => notices.push(format!(
                    "inject = '{}' is not once, every or none; keeping {}.",
                    shorten(value),
                    injection_text(self.injection)
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
                                self.permutation.to_query()
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
            "simview" => match value.trim().to_ascii_lowercase().as_str() {
                "gram" => self.sim_view = SimilarityView::Gram,
                "dist" | "distance" => self.sim_view = SimilarityView::Distance,
                _ => notices.push(format!(
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
            "proj" => match ProjectionMode::from_query(&value.to_ascii_lowercase()) {
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
            "beta" => match value.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => {
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
                if let Some(b) = parse_bool("tile", value, notices) {
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
        match trimmed.parse::<f64>() {
            Ok(v) if v.is_finite() => {
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

    /// Where P enters the stacking experiment, as the URL says it.
    pub fn injection_name(&self) -> &'static str {
        injection_text(self.injection)
    }

    /// The position family in use: `None` while `pe` is off.
    pub fn encoding_in_use(&self) -> Encoding {
        if self.positional_encoding {
            self.encoding
        } else {
            Encoding::None
        }
    }

    /// How position enters the attention panels' layer (with RoPE's base `base`).
    pub fn position_scheme(&self, base: f64) -> PositionScheme {
        PositionScheme {
            alibi_heads: self.alibi_heads,
            clip: self.clip,
            learned_max: self.learned_max,
            ..PositionScheme::new(self.encoding_in_use(), base, self.seed)
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

    /// Brings the settings that depend on others into range: the token pair follows the sentence
    /// (silently), the heads must divide d (see [`PanelSettings::fit_to`]).
    pub fn clamp(&mut self) -> Vec<String> {
        let last = self.token_count().saturating_sub(1);
        self.token_pair = (self.token_pair.0.min(last), self.token_pair.1.min(last));
        self.fit_to(self.d)
    }

    /// Follows the global d: a chosen number of heads that does not divide it becomes the nearest
    /// divisor, with a notice (an unchosen one follows silently).
    pub fn fit_to(&mut self, d: usize) -> Vec<String> {
        self.d = d.max(1);
        let mut notices = Vec::new();
        if let Some(h) = self.heads {
            if h == 0 || self.d % h != 0 {
                let nearest = nearest_divisor(self.d, h);
                notices.push(format!(
                    "heads = {h} does not divide d = {}; using heads = {nearest}.",
                    self.d
                ));
                self.heads = Some(nearest);
            }
        }
        notices
    }

    /// The d the heads were fitted to.
    pub fn d(&self) -> usize {
        self.d
    }

    /// The number of heads in use: always a divisor of d.
    pub fn heads(&self) -> usize {
        match self.heads {
            Some(h) if h > 0 && self.d % h == 0 => h,
            Some(h) => nearest_divisor(self.d, h),
            None => nearest_divisor(self.d, DEFAULT_HEADS),
        }
    }

    /// The tokens of the sentence (at most `MAX_TOKENS`).
    pub fn tokens(&self) -> Vec<String> {
        tokenize(&self.text)
    }

    pub fn token_count(&self) -> usize {
        count_tokens(&self.text).min(MAX_TOKENS)
    }

    /// The mask in use: `Some(v)` with v < the number of tokens, or `None` (no key masked).
    pub fn effective_valid_len(&self) -> Option<usize> {
        self.valid_len.filter(|&v| v < self.token_count())
    }

    /// The complexity panel's (n, d, k), the global n and d standing in for unset ones.
    pub fn complexity(&self, global_n: usize, global_d: usize) -> (usize, usize, usize) {
        (
            self.complexity_n
                .unwrap_or(global_n)
                .clamp(1, COMPLEXITY_N_MAX),
            self.complexity_d
                .unwrap_or(global_d)
                .clamp(1, COMPLEXITY_D_MAX),
            self.kernel.clamp(1, KERNEL_MAX),
        )
    }

    /// The settings as URL pairs: those left to follow something else are absent (a link then
    /// follows too). Values are raw text, to be URL-encoded by the caller.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("text", self.text.clone())];
        if let Some(v) = self.valid_len {
            pairs.push(("valid", v.to_string()));
        }
        pairs.push(("pe", bool_text(self.positional_encoding).into()));
        pairs.push(("sqrtd", bool_text(self.scale_embeddings).into()));
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
        pairs.push(("perm", self.permutation.to_query()));
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
            pairs.push(("inject", injection_text(self.injection).into()));
        }
        pairs
    }

    /// The order panel's permutation of `tokens` (see [`PermutationChoice`]).
    pub fn chosen_permutation<S: AsRef<str>>(&self, tokens: &[S]) -> ChosenPermutation {
        choose_permutation(self.permutation, tokens)
    }
}

/// See [`PermutationChoice`]: the swap of "3" and "4" falls back to the first and last tokens when
/// the sentence lacks either, and fewer than two tokens leave nothing to permute.
pub fn choose_permutation<S: AsRef<str>>(
    choice: PermutationChoice,
    tokens: &[S],
) -> ChosenPermutation {
    let n = tokens.len().min(MAX_TOKENS);
    let tokens = &tokens[..n];
    let identity: Vec<usize> = (0..n).collect();
    if n < 2 {
        return ChosenPermutation {
            permutation: identity,
            description: "fewer than two tokens: nothing to permute".into(),
        };
    }
    match choice {
        PermutationChoice::Identity => ChosenPermutation {
            permutation: identity,
            description: "no permutation (every token in place)".into(),
        },
        PermutationChoice::Swap => match swap_permutation(tokens, "3", "4") {
            Ok(permutation) => ChosenPermutation {
                permutation,
                description: "the seeds' swap: \"3\" ↔ \"4\"".into(),
            },
            Err(_) => {
                let mut permutation = identity;
                permutation.swap(0, n - 1);
                ChosenPermutation {
                    permutation,
                    description: format!(
                        "\"3\" and \"4\" are not both in the sentence: swapping the first and last tokens (\"{}\" ↔ \"{}\")",
                        tokens[0].as_ref(),
                        tokens[n - 1].as_ref()
                    ),
                }
            }
        },
        PermutationChoice::Shuffle(seed) => ChosenPermutation {
            permutation: shuffle(n, seed),
            description: format!("shuffle #{seed}"),
        },
    }
}

/// The next shuffle seed after `seed` whose permutation of n tokens moves at least one token (any
/// seed will do for n < 2). Deterministic, so a test can predict it.
pub fn next_shuffle_seed(n: usize, seed: u64) -> u64 {
    let mut next = seed.wrapping_add(1);
    if n < 2 {
        return next;
    }
    for _ in 0..1000 {
        let permutation = shuffle(n, next);
        if permutation.iter().enumerate().any(|(i, &p)| i != p) {
            return next;
        }
        next = next.wrapping_add(1);
    }
    next
}

/// The batch example's two sequences: tokens 0–3 and 4–7 of the sentence, each padded with
/// [`PAD_TOKEN`] to [`BATCH_SEQUENCE_LEN`] tokens (exactly what valid_lens is for).
pub fn batch_sequences<S: AsRef<str>>(tokens: &[S]) -> [Vec<String>; 2] {
    let sequence = |start: usize| -> Vec<String> {
        (start..start + BATCH_SEQUENCE_LEN)
            .map(|i| {
                tokens
                    .get(i)
                    .map_or(PAD_TOKEN.to_string(), |t| t.as_ref().to_string())
            })
            .collect()
    };
    [sequence(0), sequence(BATCH_SEQUENCE_LEN)]
}

/// The divisors of d in increasing order (d = 0 has none).
pub fn divisors(d: usize) -> Vec<usize> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut k = 1;
    while k * k <= d {
        if d % k == 0 {
            small.push(k);
            if k * k != d {
                large.push(d / k);
            }
        }
        k += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

/// The divisor of d closest to `heads` (ties go to the smaller one); 1 for d = 0.
pub fn nearest_divisor(d: usize, heads: usize) -> usize {
    divisors(d)
        .into_iter()
        .min_by_key(|&k| (k.abs_diff(heads), k))
        .unwrap_or(1)
}

/// The URL form of where P enters the stack.
pub fn injection_text(injection: PositionInjection) -> &'static str {
    match injection {
        PositionInjection::Once => "once",
        PositionInjection::EveryLayer => "every",
        PositionInjection::None => "none",
    }
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

fn parse_bool(key: &str, value: &str, notices: &mut Vec<String>) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => {
            notices.push(format!(
                "{key} = '{}' is not on or off (1 or 0); keeping {key} unchanged.",
                shorten(value)
            ));
            None
        }
    }
}
