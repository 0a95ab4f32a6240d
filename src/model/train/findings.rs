//! What a finished run shows, as sentences built from its measured numbers only: each states the
//! numbers it rests on, and none says more than they do.

use super::run::TrainRun;
use super::{percent, Task, TrainEncoding};
use crate::model::sort::sort_by_key_f64_descending;
use pe_lab_train::protocol::EncodingReport;

/// The accuracy the page calls "learned the task".
pub const SOLVED: f64 = 0.95;

/// A loss with three significant digits.
pub fn loss_text(loss: f64) -> String {
    if !loss.is_finite() {
        return "–".into();
    }
    let digits = if loss.abs() >= 1.0 {
        2
    } else if loss.abs() >= 0.1 {
        3
    } else {
        4
    };
    let text = if loss.abs() < 1e-3 && loss != 0.0 {
        format!("{loss:.2e}")
    } else {
        format!("{loss:.digits$}")
    };
    text
}

/// A translation spread: small values in scientific notation.
pub fn spread_text(spread: f64) -> String {
    if !spread.is_finite() {
        "–".into()
    } else if spread != 0.0 && spread.abs() < 1e-3 {
        format!("{spread:.1e}")
    } else {
        format!("{spread:.3}")
    }
}

/// "a 100%, b 18.15%": encodings with a share each, in the order given.
fn listed<'a>(items: impl Iterator<Item = (&'a EncodingReport, f64)>) -> String {
    items
        .map(|(r, share)| format!("{} {}", r.encoding.link_name(), percent(share)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sentences of a finished run (none while it is running).
pub fn findings(run: &TrainRun) -> Vec<String> {
    let reports: Vec<&EncodingReport> = run.finished().collect();
    if reports.is_empty() || !run.is_done() {
        return Vec::new();
    }
    let c = &run.config;
    let n = c.train_length;
    let mut out = Vec::new();

    // 1. At the training length.
    let mut by_accuracy = reports.clone();
    sort_by_key_f64_descending(&mut by_accuracy, |r| r.accuracy_at_multiples[0]);
    let (solved, unsolved): (Vec<_>, Vec<_>) = by_accuracy
        .iter()
        .partition(|r| r.accuracy_at_multiples[0] >= SOLVED);
    let chance = c.task.chance(n, c.vocab);
    fn accuracy<'a>(r: &&&'a EncodingReport) -> (&'a EncodingReport, f64) {
        (**r, r.accuracy_at_multiples[0])
    }
    let mut first = if solved.is_empty() {
        format!(
            "At the training length ({n}) no encoding reached {} token accuracy after {} steps: {}",
            percent(SOLVED),
            c.steps,
            listed(unsolved.iter().map(accuracy))
        )
    } else if unsolved.is_empty() {
        format!(
            "At the training length ({n}) every encoding reached at least {} token accuracy after {} steps: {}",
            percent(SOLVED),
            c.steps,
            listed(solved.iter().map(accuracy))
        )
    } else {
        format!(
            "At the training length ({n}) {} reached at least {} token accuracy after {} steps ({}); {} stayed below ({})",
            solved
                .iter()
                .map(|r| r.encoding.link_name())
                .collect::<Vec<_>>()
                .join(", "),
            percent(SOLVED),
            c.steps,
            listed(solved.iter().map(accuracy)),
            unsolved
                .iter()
                .map(|r| r.encoding.link_name())
                .collect::<Vec<_>>()
                .join(", "),
            listed(unsolved.iter().map(accuracy))
        )
    };
    first.push_str(&format!("; chance is {}.", percent(chance)));
    out.push(first);

    let has = |e: TrainEncoding| reports.iter().any(|r| r.encoding == e);
    if has(TrainEncoding::None) && !c.causal && c.task != Task::Histogram {
        out.push(
            "Without positions and with bidirectional attention every position of a sequence sees \
             the same set of tokens, so none can only guess from its own token and which tokens \
             occur, never from where they are."
                .to_string(),
        );
    }

    // 2. Past the training length.
    let mut at_four = reports.clone();
    sort_by_key_f64_descending(&mut at_four, |r| r.accuracy_at_multiples[2]);
    let mut second = format!(
        "At 2× the training length ({}): {}. At 4× ({}): {}.",
        2 * n,
        listed(reports.iter().map(|r| (*r, r.accuracy_at_multiples[1]))),
        4 * n,
        listed(at_four.iter().map(|r| (*r, r.accuracy_at_multiples[2])))
    );
    if has(TrainEncoding::Learned) {
        second.push_str(&format!(
            " The learned table has rows for positions 0…{} only: past them nothing is added, \
             and the model sees no position there.",
            n - 1
        ));
    }
    out.push(second);

    // 3. Appended or added.
    let find = |e: TrainEncoding| reports.iter().find(|r| r.encoding == e);
    if let (Some(concat), Some(added)) =
        (find(TrainEncoding::Concat), find(TrainEncoding::Sinusoidal))
    {
        out.push(format!(
            "Appending P (concat: a token embedding of width {} beside P of width {}) ended at loss {} \
             and {} at the training length; adding P to the whole width (sinusoidal) at loss {} and {}.",
            c.d - c.d / 2,
            c.d / 2,
            loss_text(concat.final_loss),
            percent(concat.accuracy_at_multiples[0]),
            loss_text(added.final_loss),
            percent(added.accuracy_at_multiples[0])
        ));
    }

    // 4. What the learned table became.
    if let Some(learned) = find(TrainEncoding::Learned) {
        if let (Some(initial), Some(trained)) = (
            learned.translation_spread_initial,
            learned.translation_spread_trained,
        ) {
            let change = if initial > 0.0 {
                let relative = (trained - initial) / initial;
                if relative.abs() < 0.005 {
                    "training left it unchanged to within 0.5%".to_string()
                } else if relative > 0.0 {
                    format!(
                        "training raised it by {}: the trained table is not closer to depending on i − j only",
                        percent(relative)
                    )
                } else {
                    format!(
                        "training lowered it by {}: the trained table is closer to depending on i − j only",
                        percent(-relative)
                    )
                }
            } else {
                "the untrained table already had none".to_string()
            };
            out.push(format!(
                "Translation spread of the normalised Gram matrix (0 when every entry depends on \
                 i − j only): untrained table {}, trained table {}, sinusoidal P of the same size {}; {}.",
                spread_text(initial),
                spread_text(trained),
                spread_text(learned.translation_spread_sinusoidal),
                change
            ));
        }
    }

    // 5. Where the trained heads look.
    if c.task == Task::Shift {
        let mut rates: Vec<(&EncodingReport, f64)> = reports
            .iter()
            .filter_map(|r| Some((*r, r.offset_hit_rate?.rate)))
            .collect();
        sort_by_key_f64_descending(&mut rates, |r| r.1);
        if !rates.is_empty() {
            out.push(format!(
                "On the example, the share of queries whose largest weight (in the best head) is \
                 on the token exactly k = {} places back: {}.",
                c.shift_k,
                listed(rates.into_iter())
            ));
        }
    }
    out
}
