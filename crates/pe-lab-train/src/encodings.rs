//! The position schemes, and the fixed tables they are computed from. Every fixed number comes
//! from the math crate's own function (the sinusoid, the RoPE frequencies, the ALiBi slopes, the
//! T5 buckets, Shaw's clipping), so a trained model and the page's panels agree.

use pe_lab_math::alibi;
use pe_lab_math::encoding::{frequency, sinusoidal};
use pe_lab_math::shaw::clipped_index;
use pe_lab_math::t5::{bucket, BucketLayout};

use crate::real::Real;

/// The frequency base of the sinusoid and of RoPE (the chapter's 10000).
pub const BASE: f64 = 10_000.0;
/// Shaw's clipping distance k (the page's default): offsets beyond ±k share the last row.
pub const SHAW_CLIP: usize = 4;
/// The width of the `conv` kernel: offsets −1, 0, +1 (the 3 × 3 of Chu et al., in one dimension).
pub const CONV_KERNEL: usize = 3;

/// How position enters the model.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// No position: bidirectional attention is then permutation-equivariant.
    None,
    /// The sinusoidal P (fixed) added to the token embeddings.
    #[default]
    Sinusoidal,
    /// The sinusoidal P of width d/2 placed beside a token embedding of width d − d/2 (appended
    /// instead of added); the model width stays d.
    Concat,
    /// A learned table of `train_length` rows, N(0, 0.02²) at the start, added to the token
    /// embeddings. Positions past the table get no row: nothing is added to them.
    Learned,
    /// A learned depthwise convolution over the sequence (kernel [`CONV_KERNEL`], zero padding,
    /// one bias per channel) of the token embeddings, added to them: Chu et al. 2021's
    /// conditional positional encoding. Only the zero padding tells where the ends are.
    Conv,
    /// Queries and keys of every head rotated by their positions (the math crate's RoPE:
    /// interleaved pairs (2t, 2t + 1) of the head, θ_t = base^(−2t/d_head)).
    Rope,
    /// The ALiBi bias −m_h·|i − j| of head h (−m_h·(i − j) with the causal mask), slopes from
    /// the math crate for the model's number of heads.
    Alibi,
    /// A learned scalar per head and per T5 bucket of j − i, added to the scores.
    T5,
    /// Learned a^K and a^V per head, one row per offset clip(j − i, ±[`SHAW_CLIP`]).
    Shaw,
}

impl Encoding {
    pub const ALL: [Encoding; 9] = [
        Encoding::None,
        Encoding::Sinusoidal,
        Encoding::Concat,
        Encoding::Learned,
        Encoding::Conv,
        Encoding::Rope,
        Encoding::Alibi,
        Encoding::T5,
        Encoding::Shaw,
    ];

    /// The name used in links.
    pub fn link_name(self) -> &'static str {
        match self {
            Encoding::None => "none",
            Encoding::Sinusoidal => "sinusoidal",
            Encoding::Concat => "concat",
            Encoding::Learned => "learned",
            Encoding::Conv => "conv",
            Encoding::Rope => "rope",
            Encoding::Alibi => "alibi",
            Encoding::T5 => "t5",
            Encoding::Shaw => "shaw",
        }
    }

    /// The encoding of a link name.
    pub fn from_link(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.link_name() == name)
    }

    /// The width of the sinusoid placed beside the tokens by `concat` (0 for the others).
    pub fn appended_width(self, d: usize) -> usize {
        if self == Encoding::Concat {
            d / 2
        } else {
            0
        }
    }
}

/// The T5 bucket layout: T5's defaults (32 buckets, max_distance 128), bidirectional unless the
/// attention is causal.
pub fn t5_layout(causal: bool) -> BucketLayout {
    BucketLayout {
        bidirectional: !causal,
        ..BucketLayout::default()
    }
}

/// The fixed tables of one model, grown on demand to the longest sequence seen.
#[derive(Debug, Clone)]
pub struct PositionTables<T> {
    encoding: Encoding,
    causal: bool,
    d: usize,
    head_width: usize,
    /// Positions covered by the tables below.
    length: usize,
    /// `sinusoidal`: length × d; `concat`: length × d/2.
    pub sinusoid: Vec<T>,
    /// `rope`: cos and sin of position·θ_t, length × head_width/2 each.
    pub rope_cos: Vec<T>,
    pub rope_sin: Vec<T>,
    /// `alibi`: one slope per head.
    pub slopes: Vec<f64>,
    /// `t5` and `shaw`: the table row of offset j − i, at index j − i + length − 1.
    pub offset_row: Vec<usize>,
}

impl<T: Real> PositionTables<T> {
    pub fn new(encoding: Encoding, causal: bool, d: usize, heads: usize) -> Self {
        PositionTables {
            encoding,
            causal,
            d,
            head_width: d / heads.max(1),
            length: 0,
            sinusoid: Vec::new(),
            rope_cos: Vec::new(),
            rope_sin: Vec::new(),
            slopes: if encoding == Encoding::Alibi {
                alibi::slopes(heads)
            } else {
                Vec::new()
            },
            offset_row: Vec::new(),
        }
    }

    /// The number of positions the tables cover.
    pub fn length(&self) -> usize {
        self.length
    }

    /// Makes the tables cover `length` positions (recomputed only when they grow).
    pub fn ensure(&mut self, length: usize) {
        if length <= self.length {
            return;
        }
        self.length = length;
        match self.encoding {
            Encoding::Sinusoidal | Encoding::Concat => {
                let width = if self.encoding == Encoding::Concat {
                    self.encoding.appended_width(self.d)
                } else {
                    self.d
                };
                let table = sinusoidal(length, width, BASE);
                self.sinusoid.clear();
                self.sinusoid
                    .extend(table.iter().map(|&v| T::from_f64(f64::from(v))));
            }
            Encoding::Rope => {
                let pairs = self.head_width / 2;
                self.rope_cos.clear();
                self.rope_sin.clear();
                for m in 0..length {
                    for t in 0..pairs {
                        // As the math crate's rotation computes it: θ_t rounded to the float
                        // type once, the angle one multiply in that type.
                        let theta = T::from_f64(frequency(t, self.head_width, BASE));
                        let (sin, cos) = (T::from_usize(m) * theta).sin_cos();
                        self.rope_cos.push(cos);
                        self.rope_sin.push(sin);
                    }
                }
            }
            Encoding::T5 => {
                let layout = t5_layout(self.causal);
                self.offset_row = (0..2 * length - 1)
                    .map(|index| {
                        let offset = index as i64 - (length as i64 - 1);
                        // The layout is T5's default, which is valid: the error cannot occur.
                        bucket(offset, &layout).unwrap_or(0)
                    })
                    .collect();
            }
            Encoding::Shaw => {
                self.offset_row = (0..2 * length - 1)
                    .map(|index| clipped_index(index as i64 - (length as i64 - 1), SHAW_CLIP))
                    .collect();
            }
            _ => {}
        }
    }

    /// The ALiBi bias of head `h` between query i and key j: −m_h·|i − j| (the causal mask is
    /// applied separately), as the math crate's panel bias computes it: the product in f64,
    /// rounded once to the float type.
    #[inline]
    pub fn alibi_bias(&self, h: usize, i: usize, j: usize) -> T {
        // slope·(near − far), the math crate's slope·(j − i) for j ≤ i (and +0 on the diagonal).
        let (near, far) = (i.min(j) as f64, i.max(j) as f64);
        T::from_f64(self.slopes[h] * (near - far))
    }

    /// The row of the T5 or Shaw table for query i and key j.
    #[inline]
    pub fn row_of(&self, i: usize, j: usize) -> usize {
        self.offset_row[j + self.length - 1 - i]
    }
}

/// The number of rows of one head's relative table: T5's buckets or Shaw's 2k + 1 offsets.
pub fn relative_rows(encoding: Encoding) -> usize {
    match encoding {
        Encoding::T5 => BucketLayout::default().num_buckets,
        Encoding::Shaw => 2 * SHAW_CLIP + 1,
        _ => 0,
    }
}
