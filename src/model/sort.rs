//! One small stable sort for the page's short lists (a run's encodings, the link's training keys,
//! a benchmark's runs). The standard library's stable sort is fast on long slices but each call
//! site with its own element type or comparator carries its own copy of it, several kilobytes of
//! the page's wasm each; an insertion sort is a few hundred bytes and, on a few dozen items, as
//! quick as any.

/// Sorts `items` by `key`, smallest first (`total_cmp` order), keeping the order of equal keys.
pub fn sort_by_key_f64<T>(items: &mut [T], key: impl Fn(&T) -> f64) {
    insertion_sort(items, |a, b| key(a).total_cmp(&key(b)).is_gt());
}

/// Sorts `items` by `key`, largest first, keeping the order of equal keys.
pub fn sort_by_key_f64_descending<T>(items: &mut [T], key: impl Fn(&T) -> f64) {
    insertion_sort(items, |a, b| key(a).total_cmp(&key(b)).is_lt());
}

/// Moves each item left past every earlier one it must precede (`out_of_order(earlier, later)`):
/// stable, since equal items are never out of order.
fn insertion_sort<T>(items: &mut [T], out_of_order: impl Fn(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && out_of_order(&items[j - 1], &items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        let items: Vec<(f64, usize)> = [3.0, -1.0, 2.0, 3.0, f64::NAN, 0.0, -0.0, 2.0, -1.0]
            .into_iter()
            .enumerate()
            .map(|(i, x)| (x, i))
            .collect();
        let same = |a: &[(f64, usize)], b: &[(f64, usize)]| {
            a.iter()
                .map(|p| (p.0.to_bits(), p.1))
                .eq(b.iter().map(|p| (p.0.to_bits(), p.1)))
        };

        let mut ours = items.clone();
        sort_by_key_f64(&mut ours, |p| p.0);
        let mut std = items.clone();
        std.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(same(&ours, &std));

        let mut ours = items.clone();
        sort_by_key_f64_descending(&mut ours, |p| p.0);
        let mut std = items;
        std.sort_by(|a, b| b.0.total_cmp(&a.0));
        assert!(same(&ours, &std));
    }

    #[test]
    fn sorts_empty_and_single_lists() {
        let mut none: [f64; 0] = [];
        sort_by_key_f64(&mut none, |x| *x);
        let mut one = [1.0];
        sort_by_key_f64_descending(&mut one, |x| *x);
        assert_eq!(one, [1.0]);
    }
}
