//! The in-page benchmark's plan and summary (`peLab.bench()`): which sizes are timed, how many
//! runs, and the median of a set of times. The timing itself is in `web::bench`.

/// Largest sizes the benchmark accepts: the plain-JavaScript reference of the n × n × d products at
/// these sizes takes seconds, not minutes, on a phone.
pub const MAX_N: usize = 2048;
pub const MAX_D: usize = 1024;
pub const MAX_RUNS: usize = 21;

/// What one `peLab.bench()` call times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchPlan {
    /// P is n_p × d_p.
    pub encoding: (usize, usize),
    /// The Gram matrix and the attention weights are n × n from n × d.
    pub products: (usize, usize),
    /// Timed runs of each (after one warm-up); the median is reported.
    pub runs: usize,
}

impl Default for BenchPlan {
    /// P at the page's largest CPU size; the products at n = d = 512, where plain JavaScript still
    /// finishes a run in well under a second.
    fn default() -> Self {
        BenchPlan {
            encoding: (2048, 1024),
            products: (512, 512),
            runs: 5,
        }
    }
}

impl BenchPlan {
    /// The plan for `{n, d, runs}` (each optional; absent, not a number or out of range: clamped
    /// to 1 … the maximum, or the default).
    pub fn from_options(n: Option<f64>, d: Option<f64>, runs: Option<f64>) -> BenchPlan {
        let default = BenchPlan::default();
        let clamp = |v: Option<f64>, fallback: usize, max: usize| match v {
            Some(v) if v.is_finite() => (v.round().max(1.0) as usize).min(max),
            _ => fallback,
        };
        BenchPlan {
            encoding: default.encoding,
            products: (
                clamp(n, default.products.0, MAX_N),
                clamp(d, default.products.1, MAX_D),
            ),
            runs: clamp(runs, default.runs, MAX_RUNS),
        }
    }
}

/// The median of `times` (the mean of the middle two for an even count); 0 for none.
pub fn median(times: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = times.iter().copied().filter(|t| t.is_finite()).collect();
    super::sort::sort_by_key_f64(&mut sorted, |t| *t);
    match sorted.len() {
        0 => 0.0,
        len if len % 2 == 1 => sorted[len / 2],
        len => (sorted[len / 2 - 1] + sorted[len / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_clamped_and_medians_are_middles() {
        assert_eq!(
            BenchPlan::from_options(None, None, None),
            BenchPlan::default()
        );
        let p = BenchPlan::from_options(Some(1e9), Some(-3.0), Some(f64::NAN));
        assert_eq!((p.products, p.runs), ((MAX_N, 1), 5));
        assert_eq!(
            BenchPlan::from_options(Some(64.4), Some(32.0), Some(99.0)).runs,
            MAX_RUNS
        );
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }
}
