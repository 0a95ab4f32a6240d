//! The settings of the panels beyond P (the sentence, the mask, the toggles, the heads, the
//! permutation, the similarity, complexity and encoding-family settings): their limits, defaults
//! and the clamping that ties one to another. Each setting's key, long name, range, control and
//! field of `peLab.lesson` are one row of [`table::SETTINGS`], which the link's reader and writer
//! (`query::settings_keys`), the controls and `peLab.lesson` all follow.

mod controls;
mod divisors;
pub mod lesson_view;
pub mod menu_words;
mod permutation;
pub mod read;
pub mod row;
pub mod rows;
pub mod table;
pub mod words;

pub use divisors::{divisors, nearest_divisor};
pub use permutation::{
    choose_permutation, next_shuffle_seed, permutation_text, ChosenPermutation, PermutationChoice,
};

use super::params::WIDEST_LIMITS;
use crate::math::layer::{ProjectionMode, DEFAULT_BETA, DEFAULT_SEED};
use crate::math::position::{
    Encoding, PositionScheme, DEFAULT_ALIBI_HEADS, DEFAULT_CLIP, DEFAULT_LEARNED_MAX,
};
use crate::math::stacking::PositionInjection;
use crate::math::tokens::{count_tokens, tokenize, DEFAULT_SENTENCE, MAX_TOKENS};
use crate::model::query::values::UrlName;

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

/// What the similarity panel's heatmap shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimilarityView {
    /// G = P·Pᵀ: constant diagonals.
    Gram,
    /// ‖p_i − p_j‖: why nearby early rows look alike.
    Distance,
}

impl UrlName for SimilarityView {
    fn to_query(self) -> &'static str {
        match self {
            SimilarityView::Gram => "gram",
            SimilarityView::Distance => "dist",
        }
    }

    fn from_query(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "gram" => Some(SimilarityView::Gram),
            "dist" | "distance" => Some(SimilarityView::Distance),
            _ => None,
        }
    }
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
    /// The pretrained panel's model adds its trained position table (`ptable`); off, the
    /// table's rows are zero.
    pub position_table: bool,
    /// The global d the heads were fitted to (not part of a link).
    pub(crate) d: usize,
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
            position_table: true,
            d: super::params::DEFAULT_D,
        }
    }
}

/// The attention panel's settings behind its "More settings" line (its mask, the √d scaling, the
/// family of P, the projections, their seed and the offset head's κ): the page opens that line
/// when they change away from their defaults, so that a link's or a script's setting is seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttentionExtras {
    valid_len: Option<usize>,
    scale_embeddings: bool,
    encoding: Encoding,
    projection: ProjectionMode,
    seed: u64,
    beta: f64,
}

impl PanelSettings {
    /// See [`AttentionExtras`]; `None` where every one of them is at its default (the values of
    /// `PanelSettings::default()`, written out: building a whole default state to compare six
    /// fields cost the first load 0.3 KB; a test holds the two together).
    pub fn attention_extras(&self) -> Option<AttentionExtras> {
        const DEFAULTS: AttentionExtras = AttentionExtras {
            valid_len: None,
            scale_embeddings: true,
            encoding: Encoding::Sinusoidal,
            projection: ProjectionMode::Random,
            seed: DEFAULT_SEED,
            beta: DEFAULT_BETA,
        };
        let these = AttentionExtras {
            valid_len: self.valid_len,
            scale_embeddings: self.scale_embeddings,
            encoding: self.encoding,
            projection: self.projection,
            seed: self.seed,
            beta: self.beta,
        };
        (these != DEFAULTS).then_some(these)
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
                notices.push(crate::message!(
                    "notice-heads-do-not-divide",
                    heads = h,
                    d = self.d,
                    used = nearest
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

    /// The order panel's permutation of `tokens` (see [`PermutationChoice`]).
    pub fn chosen_permutation<S: AsRef<str>>(&self, tokens: &[S]) -> ChosenPermutation {
        choose_permutation(self.permutation, tokens)
    }
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

#[cfg(test)]
mod attention_extras_tests {
    use super::*;

    #[test]
    fn a_similarity_view_reads_back_its_link_name() {
        for view in [SimilarityView::Gram, SimilarityView::Distance] {
            assert_eq!(SimilarityView::from_query(view.to_query()), Some(view));
        }
    }

    #[test]
    fn the_extras_are_none_at_the_defaults_and_differ_with_each_setting() {
        let defaults = PanelSettings::default();
        assert_eq!(defaults.attention_extras(), None);
        let changed = [
            PanelSettings {
                valid_len: Some(3),
                ..defaults.clone()
            },
            PanelSettings {
                scale_embeddings: false,
                ..defaults.clone()
            },
            PanelSettings {
                encoding: Encoding::Rope,
                ..defaults.clone()
            },
            PanelSettings {
                projection: ProjectionMode::Offset,
                ..defaults.clone()
            },
            PanelSettings {
                seed: defaults.seed + 1,
                ..defaults.clone()
            },
            PanelSettings {
                beta: defaults.beta / 2.0,
                ..defaults.clone()
            },
        ];
        let extras: Vec<_> = changed
            .iter()
            .map(PanelSettings::attention_extras)
            .collect();
        assert!(extras.iter().all(Option::is_some));
        // Each differs from every other: a second change opens the line again.
        for (i, a) in extras.iter().enumerate() {
            for b in &extras[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // The idea's own controls (the sentence, P on or off) are not among them.
        let idea = PanelSettings {
            positional_encoding: false,
            ..defaults
        };
        assert_eq!(idea.attention_extras(), None);
    }
}
