//! The float type the model is written over: f32 for training, f64 for the finite-difference
//! checks of the same code.
//!
//! exp, ln and sin/cos come from the `libm` crate, not from std: std's call the platform's C
//! library natively and a port of musl in wasm, which differ in the last bit, so a link trained
//! natively and in the page would drift apart from the first steps. `sqrt` is IEEE-exact
//! everywhere and stays std's.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// The arithmetic the forward and backward passes need: the same code for f32 and f64, with the
/// transcendental functions from `libm` (the same bits on every target).
pub trait Real:
    Copy
    + Debug
    + Default
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    /// A score that softmax turns into a weight of exactly 0.
    const NEG_INFINITY: Self;
    fn from_f64(value: f64) -> Self;
    fn to_f64(self) -> f64;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn sin_cos(self) -> (Self, Self);
    fn from_usize(value: usize) -> Self {
        Self::from_f64(value as f64)
    }
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
}

macro_rules! impl_real {
    ($t:ty, $exp:path, $ln:path, $sin_cos:path) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            #[inline]
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn exp(self) -> Self {
                $exp(self)
            }
            #[inline]
            fn ln(self) -> Self {
                $ln(self)
            }
            #[inline]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                $sin_cos(self)
            }
        }
    };
}

impl_real!(f32, libm::expf, libm::logf, libm::sincosf);
impl_real!(f64, libm::exp, libm::log, libm::sincos);
