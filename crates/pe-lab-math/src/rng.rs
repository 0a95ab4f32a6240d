//! Portable, deterministic pseudo-randomness for the teaching panels: the same word gives the same
//! embedding and the same seed gives the same shuffle on every platform, wasm32 included.
//!
//! Only integer arithmetic and exactly representable float conversions are used: a stable hash
//! (FNV-1a, 64 bit) picks the seed, a splitmix64 stream supplies the bits, and approximate normals
//! are a sum of twelve uniforms (Irwin–Hall), formed with integer sums that are exact in f64.
//! Nothing depends on `HashMap`'s random state, on `libm` (`ln`, `cos` of Box–Muller can differ in
//! the last bit between platforms) or on the build.

/// FNV-1a 64 offset basis (the published constant).
const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime (the published constant).
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bit, of a byte string. Stable across platforms and Rust versions (unlike
/// `std::hash`, whose `DefaultHasher` algorithm is unspecified).
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET_BASIS, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// splitmix64 (Steele, Lea and Flood; the reference code by Vigna): a 64-bit state advanced by the
/// golden-ratio increment and scrambled. Every seed, 0 included, gives a full-period stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A stream starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// An integer in `0..bound` by Lemire's multiply-shift (the high word of a 64×64 product). The
    /// bias is at most bound/2⁶⁴, far below anything a panel can show, so there is no rejection
    /// loop. `bound = 0` gives 0.
    pub fn below(&mut self, bound: usize) -> usize {
        let wide = u128::from(self.next_u64()) * bound as u128;
        // The high word is < bound ≤ usize::MAX, so the conversion cannot fail.
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// An approximately standard normal number: the sum of twelve uniforms on (0, 1) minus 6 (mean
    /// 0, variance 1, range (−6, 6)). Each uniform is (u + ½)/2³² for a 32-bit integer u, so the
    /// sum is an integer multiple of 2⁻³² below 2³⁷ and is formed **exactly**: the result is the
    /// same bit pattern on every platform.
    pub fn approx_standard_normal(&mut self) -> f64 {
        let mut sum: u64 = 0;
        for _ in 0..6 {
            let bits = self.next_u64();
            sum += (bits >> 32) + (bits & 0xffff_ffff);
        }
        // Σ (u_k + ½) − 6·2³² = Σ u_k + 6 − 6·2³²; an integer of magnitude < 2³⁷, exact in i64 and f64.
        let centred = sum as i64 + 6 - 6 * (1i64 << 32);
        centred as f64 * (1.0 / 4_294_967_296.0)
    }
}

/// A seed for a string: the FNV-1a 64 hash of its UTF-8 bytes.
pub fn seed_of(text: &str) -> u64 {
    fnv1a_64(text.as_bytes())
}
