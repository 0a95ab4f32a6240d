//! The numbers of heads a width d allows: its divisors, and the one nearest to a request.

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
