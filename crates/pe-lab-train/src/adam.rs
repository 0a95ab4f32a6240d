//! Adam (Kingma and Ba 2015) with PyTorch's defaults and update form: β₁ = 0.9, β₂ = 0.999,
//! ε = 1e-8 added to √v̂, no weight decay, a constant step size.

use crate::real::Real;

pub const BETA1: f64 = 0.9;
pub const BETA2: f64 = 0.999;
pub const EPSILON: f64 = 1e-8;

/// The moments of every parameter and the step count.
#[derive(Debug, Clone)]
pub struct Adam<T> {
    pub learning_rate: f64,
    first: Vec<T>,
    second: Vec<T>,
    steps: u64,
    /// β₁ᵗ and β₂ᵗ, kept as running products (no `powi`, whose rounding is the platform's).
    beta1_power: f64,
    beta2_power: f64,
}

impl<T: Real> Adam<T> {
    pub fn new(parameters: usize, learning_rate: f64) -> Self {
        Adam {
            learning_rate,
            first: vec![T::ZERO; parameters],
            second: vec![T::ZERO; parameters],
            steps: 0,
            beta1_power: 1.0,
            beta2_power: 1.0,
        }
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One update: m ← β₁m + (1 − β₁)g, v ← β₂v + (1 − β₂)g²,
    /// p ← p − (lr/(1 − β₁ᵗ))·m/(√v/√(1 − β₂ᵗ) + ε).
    pub fn update(&mut self, params: &mut [T], grads: &[T]) {
        self.steps += 1;
        self.beta1_power *= BETA1;
        self.beta2_power *= BETA2;
        let step_size = T::from_f64(self.learning_rate / (1.0 - self.beta1_power));
        let inverse_correction = T::from_f64(1.0 / (1.0 - self.beta2_power).sqrt());
        let (b1, b2) = (T::from_f64(BETA1), T::from_f64(BETA2));
        let (c1, c2) = (T::ONE - b1, T::ONE - b2);
        let epsilon = T::from_f64(EPSILON);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grads)
            .zip(self.first.iter_mut())
            .zip(self.second.iter_mut())
        {
            *m = b1 * *m + c1 * g;
            *v = b2 * *v + c2 * g * g;
            *p -= step_size * *m / (v.sqrt() * inverse_correction + epsilon);
        }
    }
}
