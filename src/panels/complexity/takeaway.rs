//! The complexity panel's takeaway: why self-attention is slow on long sequences, with the live
//! counts and the lengths past which it costs more, as the chart draws them. The sentence is a
//! message of `locales/computed` (`takeaway-complexity`). Tested natively; the view writes it
//! above its "More".

use super::{format_count, ComplexityStats};

/// The complexity panel's takeaway: why self-attention is slow on long sequences (n² scores,
/// four times the work for twice the length, against the RNN's and the CNN's doubling, with the
/// CNN's count derived), and the lengths past which it costs more: what the chart draws. The
/// path lengths are left to the path figure, which draws at most 16 positions.
pub fn takeaway(stats: &ComplexityStats) -> String {
    let (n, d, k) = (stats.n, stats.d, stats.k);
    crate::message!(
        "takeaway-complexity",
        attention = format_count(stats.self_attention.operations),
        rnn = format_count(stats.rnn.operations),
        cnn = format_count(stats.cnn.operations),
        n = n,
        d = d,
        k = k,
        kd = format_count((k as f64) * (d as f64))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::complexity::{compute, MeasureState};

    #[test]
    fn complexity_answers_why_attention_is_slow_as_the_chart_shows() {
        let stats = compute(60, 32, 3, "cpu", &MeasureState::default()).unwrap();
        let text = takeaway(&stats);
        assert_eq!(
            text,
            "Long sequences are slow because self-attention scores every pair of positions: n²·d = 115\u{202f}200 operations at n = 60, d = 32, 4× more when n doubles, while the RNN's n·d² = 61\u{202f}440 and the CNN's k·n·d² = 184\u{202f}320 (k = 3 neighbours, d × d weights each) only double: it costs more than the RNN past n = d = 32, than the CNN past n = k·d = 96."
        );
        // The claims, from the counts: n² scores of d each; 4× against 2× when n doubles; the
        // crossovers the chart marks.
        for (n, d, k) in [(60, 32, 3), (1, 1, 1), (100, 512, 5), (4096, 2048, 64)] {
            let at = |n| compute(n, d, k, "cpu", &MeasureState::default()).unwrap();
            let (one, two) = (at(n), at(2 * n));
            assert_eq!(
                one.self_attention.operations,
                (n * n * d) as f64,
                "n²·d at n = {n}"
            );
            assert_eq!(
                two.self_attention.operations,
                4.0 * one.self_attention.operations
            );
            assert_eq!(two.rnn.operations, 2.0 * one.rnn.operations);
            assert_eq!(two.cnn.operations, 2.0 * one.cnn.operations);
            assert_eq!(one.cnn.operations, (k * n * d * d) as f64);
            assert_eq!((one.crossover_n, one.crossover_n_cnn), (d, k * d));
            let past = |n: usize| at(n);
            let (rnn_edge, cnn_edge) = (past(d + 1), past(k * d + 1));
            assert!(rnn_edge.self_attention.operations > rnn_edge.rnn.operations);
            assert!(past(d).self_attention.operations <= past(d).rnn.operations);
            assert!(cnn_edge.self_attention.operations > cnn_edge.cnn.operations);
            assert!(past(k * d).self_attention.operations <= past(k * d).cnn.operations);
        }
        // No path length: the path figure draws at most 16 positions, the sentence does not
        // contradict it.
        assert_eq!(stats.drawn_positions, 16);
        assert!(!text.contains("path") && !text.contains("30"), "{text}");
        let k1 = takeaway(&compute(60, 32, 1, "cpu", &MeasureState::default()).unwrap());
        assert!(k1.ends_with("than the CNN past n = k·d = 32."), "{k1}");
    }
}
