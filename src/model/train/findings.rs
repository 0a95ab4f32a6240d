//! What a finished run shows, as sentences built from its measured numbers only. A run trains
//! every encoding on several seeds, and a sentence states a result only where it holds on every
//! seed; otherwise it says that the result varies and gives its range. Accuracies are written in
//! whole points (two significant figures below 10%): one seed's accuracy rests on 64 sequences,
//! whose standard error is about two points, so a decimal would be noise.
//!
//! [`verdict`] is the two or three sentences above the charts: which encodings solve the task at
//! the training length, which keep it past it, and why the failures fail, each reason checked on
//! the run's own numbers. [`findings`] are the detailed sentences below them.

use super::run::{Spread, TrainRun};
use super::{Task, TrainEncoding};
use pe_lab_train::protocol::EncodingReport;
use pe_lab_train::AttentionMap;

/// The accuracy the page calls "solves the task".
pub const SOLVED: f64 = 0.95;

/// An encoding is "at the position-blind ceiling" when every seed's accuracy is below the ceiling
/// plus this margin (five points: more than twice one seed's standard error of about two points,
/// so that a model that really is blind is not called better by accident).
pub const CEILING_MARGIN: f64 = 0.05;

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
    if loss.abs() < 1e-3 && loss != 0.0 {
        format!("{loss:.2e}")
    } else {
        format!("{loss:.digits$}")
    }
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

/// A share in whole percentage points, or two significant figures below 10%: 0.9843 → "98",
/// 0.0625 → "6.3", 0.0068 → "0.68", 0 → "0"; "–" for a share that was not measured.
pub fn points_number(share: f64) -> String {
    if !share.is_finite() {
        return "–".into();
    }
    let p = 100.0 * share;
    if p == 0.0 || p.abs() >= 9.95 {
        return format!("{p:.0}");
    }
    // Two significant figures: one decimal from 1 to 10, more below.
    let decimals = (1.0 - p.abs().log10().floor()).max(1.0) as usize;
    let text = format!("{p:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// [`points_number`] with its percent sign.
pub fn points(share: f64) -> String {
    if share.is_finite() {
        format!("{}%", points_number(share))
    } else {
        "–".into()
    }
}

/// A mean over seeds with its range: "98% (89–100)", or "100%" when every seed rounds alike.
pub fn spread_points(spread: &Spread) -> String {
    let (low, high) = (points_number(spread.min), points_number(spread.max));
    if low == high || spread.count < 2 {
        points(spread.mean)
    } else {
        format!("{} ({low}–{high})", points(spread.mean))
    }
}

/// Per encoding, its accuracy at 1×, 2× or 4× the training length over the seeds.
fn at_multiple(results: &[&EncodingReport], multiple: usize) -> Spread {
    Spread::of(results.iter().map(|r| r.accuracy_at_multiples[multiple]))
}

/// "rope 100%, shaw 98% (96–100)": encodings with a spread each, in the order given.
fn listed(items: &[(TrainEncoding, Spread)]) -> String {
    items
        .iter()
        .map(|(e, s)| format!("{} {}", e.link_name(), spread_points(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn names(items: &[(TrainEncoding, Spread)]) -> String {
    let names: Vec<&str> = items.iter().map(|(e, _)| e.link_name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "on all 3 seeds", "on both seeds", "on the one seed trained".
fn on_every_seed(seeds: usize) -> String {
    match seeds {
        1 => "on the one seed trained".into(),
        2 => "on both seeds".into(),
        _ => format!("on all {seeds} seeds"),
    }
}

/// The verb's "s" for one subject: "rope solves", "rope and shaw solve".
fn verb_s(subjects: usize) -> &'static str {
    if subjects == 1 {
        "s"
    } else {
        ""
    }
}

/// What "chance" is on the run's task: uniform guessing, or on `histogram` always guessing the
/// most likely count.
pub fn chance_name(task: Task) -> &'static str {
    match task {
        Task::Shift | Task::Reverse => "uniform guessing",
        Task::Histogram => "always guessing the most likely count",
    }
}

/// The ceiling and chance of a run at one evaluated length.
fn baseline_at(run: &TrainRun, length: usize) -> (f64, f64) {
    let lengths = run.lengths();
    let ceiling = lengths
        .iter()
        .position(|&l| l == length)
        .and_then(|i| run.blind_ceiling().get(i).copied())
        .unwrap_or(f64::NAN);
    let c = &run.config;
    (ceiling, c.task.chance(length, c.vocab))
}

/// Where a trained head looks on the example sequence: its mean weight on the key `offset`
/// places back and `offset` places ahead (over the queries that have both), the uniform weight
/// 1/n, and whether the key `offset` back gets more mean weight than any other offset (a signal,
/// not noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OffsetWeights {
    pub back: f64,
    pub ahead: f64,
    pub uniform: f64,
    pub back_is_largest: bool,
}

/// [`OffsetWeights`] of one attention map (`None` when no query has keys on both sides).
pub fn offset_weights(map: &AttentionMap, offset: usize) -> Option<OffsetWeights> {
    let n = map.length;
    if offset == 0 || 2 * offset >= n || map.weights.len() != n * n {
        return None;
    }
    let weight = |i: usize, j: usize| f64::from(map.weights[i * n + j]);
    let both: Vec<usize> = (offset..n - offset).collect();
    let mean =
        |f: &dyn Fn(usize) -> f64| both.iter().map(|&i| f(i)).sum::<f64>() / both.len() as f64;
    let back = mean(&|i| weight(i, i - offset));
    let ahead = mean(&|i| weight(i, i + offset));
    // The mean weight at every other offset d, over the queries that have a key there.
    let back_is_largest = (-(n as i64 - 1)..n as i64)
        .filter(|&d| d != -(offset as i64))
        .all(|d| {
            let queries: Vec<usize> = (0..n)
                .filter(|&i| (0..n as i64).contains(&(i as i64 + d)))
                .collect();
            let m = queries
                .iter()
                .map(|&i| weight(i, (i as i64 + d) as usize))
                .sum::<f64>()
                / queries.len().max(1) as f64;
            m < back
        });
    Some(OffsetWeights {
        back,
        ahead,
        uniform: 1.0 / n as f64,
        back_is_largest,
    })
}

/// The head of `report` that puts most mean weight on the key k places back, with its weights.
pub fn best_offset_head(
    report: &EncodingReport,
    offset: usize,
) -> Option<(&AttentionMap, OffsetWeights)> {
    report
        .attention
        .iter()
        .filter_map(|map| Some((map, offset_weights(map, offset)?)))
        .max_by(|a, b| a.1.back.total_cmp(&b.1.back))
}

/// The training panel's takeaway, in one sentence: before a run is complete, what pressing Train
/// does with these settings; once every seed is done, the verdict's first sentence (the rest of
/// the verdict is shown below it: [`verdict_after_takeaway`]).
pub fn takeaway(run: Option<&TrainRun>, settings: &super::TrainSettings) -> String {
    if let Some(first) = run.and_then(|run| run.conclusions().0.first()) {
        return first.clone();
    }
    if run.is_some_and(|run| !run.is_done() && run.failure.is_none()) {
        return "Training: the verdict comes here once every seed is done, and states only what \
                holds on every seed."
            .into();
    }
    let seeds = if settings.seeds == 1 {
        "1 seed".to_string()
    } else {
        format!("{} seeds", settings.seeds)
    };
    let task = settings.config.task.link_name();
    let who = match settings.encodings.len() {
        1 => format!("1 encoding learns the {task} task on {seeds}"),
        many => format!("{many} encodings learn the {task} task side by side, each on {seeds}"),
    };
    format!("Press Train: {who}; the verdict states only what holds on every seed.")
}

/// The verdict's sentences after the first (which the takeaway shows).
pub fn verdict_after_takeaway(run: &TrainRun) -> &[String] {
    let (verdict, _) = run.conclusions();
    verdict.get(1..).unwrap_or(&[])
}

/// The sentences above the charts (none while the run is going): at the training length, past
/// it, and why the failures at the training length fail.
pub fn verdict(run: &TrainRun) -> Vec<String> {
    if !run.is_done() {
        return Vec::new();
    }
    let complete = run.complete();
    let (first, blind) = at_training_length(run, &complete);
    let mut out = vec![first, past_training_length(run, &complete)];
    if let Some(reasons) = why_blind(run, &complete, &blind) {
        out.push(reasons);
    }
    out
}

/// Every encoding's spread of accuracy at one length.
type Spreads = Vec<(TrainEncoding, Spread)>;

/// At the training length: solved on every seed, at the position-blind ceiling on every seed, or
/// varying. Returns the sentence and the encodings at the ceiling.
fn at_training_length(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> (String, Spreads) {
    let c = &run.config;
    let n = c.train_length;
    let seeds = run.seeds.len();
    let every = on_every_seed(seeds);
    let (ceiling, chance) = baseline_at(run, n);
    let mut solved = Vec::new();
    let mut blind = Vec::new();
    let mut between = Vec::new();
    for (e, results) in complete {
        let s = at_multiple(results, 0);
        if s.min >= SOLVED {
            solved.push((*e, s));
        } else if s.max < ceiling + CEILING_MARGIN && c.task != Task::Histogram {
            blind.push((*e, s));
        } else {
            between.push((*e, s));
        }
    }
    let mut first = match (solved.is_empty(), between.is_empty() && blind.is_empty()) {
        (false, true) => format!(
            "At the training length ({n}) every encoding solves the task {every}: {}.",
            listed(&solved)
        ),
        (false, false) => format!(
            "At the training length ({n}) {} solve{} the task {every} (≥ {}: {}).",
            names(&solved),
            verb_s(solved.len()),
            points(SOLVED),
            listed(&solved)
        ),
        (true, _) => format!(
            "At the training length ({n}) no encoding reaches {} {every}.",
            points(SOLVED)
        ),
    };
    if !blind.is_empty() {
        first.push_str(&format!(
            " {} stay{} at or near the position-blind ceiling, {} (the best any model that cannot \
             see positions can reach): {}.",
            names(&blind),
            verb_s(blind.len()),
            points(ceiling),
            listed(&blind)
        ));
    }
    if !between.is_empty() {
        let varies: Vec<_> = between
            .iter()
            .filter(|(_, s)| points_number(s.min) != points_number(s.max))
            .collect();
        first.push_str(&format!(
            " Short of solving it: {}{}.",
            listed(&between),
            if varies.len() == between.len() && seeds > 1 {
                ", each varying with the seed"
            } else {
                ""
            }
        ));
    }
    if c.task == Task::Histogram {
        first.push_str(&format!(
            " The task needs no position: a position-blind model can reach {}.",
            points(ceiling)
        ));
    } else if chance.is_finite() {
        first.push_str(&format!(" Chance is {}.", points(chance)));
    }
    (first, blind)
}

/// Past the training length: who still solves it at 4× or 2×, or how far every encoding falls.
fn past_training_length(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> String {
    let c = &run.config;
    let n = c.train_length;
    let every = on_every_seed(run.seeds.len());
    let solved_at = |multiple: usize| -> Vec<(TrainEncoding, Spread)> {
        complete
            .iter()
            .map(|(e, r)| (*e, at_multiple(r, multiple)))
            .filter(|(_, s)| s.min >= SOLVED)
            .collect()
    };
    let (kept_twice, kept_four) = (solved_at(1), solved_at(2));
    let best_four = complete
        .iter()
        .map(|(e, r)| (*e, at_multiple(r, 2)))
        .max_by(|a, b| a.1.min.total_cmp(&b.1.min));
    let next_four = complete
        .iter()
        .map(|(e, r)| (*e, at_multiple(r, 2)))
        .filter(|(e, _)| !kept_four.iter().any(|(k, _)| k == e))
        .max_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
    let second = if !kept_four.is_empty() {
        let mut text = format!(
            "Past it, {} still solve{} it at 4× the training length ({}) {every}: {}.",
            names(&kept_four),
            verb_s(kept_four.len()),
            4 * n,
            listed(&kept_four)
        );
        if let Some(next) = next_four {
            text.push_str(&format!(
                " The next best there is {}{}.",
                listed(&[next]),
                if next.1.count > 1 && points_number(next.1.min) != points_number(next.1.max) {
                    ", varying with the seed"
                } else {
                    ""
                }
            ));
        }
        text
    } else if !kept_twice.is_empty() {
        format!(
            "Past it, {} still solve{} it at 2× ({}) {every}, and none does at 4× ({}); the best \
             there is {}.",
            names(&kept_twice),
            verb_s(kept_twice.len()),
            2 * n,
            4 * n,
            best_four.map_or("–".into(), |b| listed(&[b]))
        )
    } else {
        none_keeps_it(run, complete)
    };
    second
}

/// Past the training length, when no encoding still solves the task at 2×: how far every one
/// falls at 4×, against chance and (for the histogram) the position-blind ceiling.
fn none_keeps_it(run: &TrainRun, complete: &[(TrainEncoding, Vec<&EncodingReport>)]) -> String {
    let c = &run.config;
    let n = c.train_length;
    let (ceiling_four, chance_four) = baseline_at(run, 4 * n);
    let all_four: Vec<(TrainEncoding, Spread)> = complete
        .iter()
        .map(|(e, r)| (*e, at_multiple(r, 2)))
        .collect();
    let highest = all_four.iter().fold(0.0f64, |m, (_, s)| m.max(s.max));
    let mut text = format!(
        "Past it, no encoding keeps it: at 4× the training length ({}) every encoding is at \
         or below {} on every seed",
        4 * n,
        points(highest)
    );
    if highest < chance_four {
        text.push_str(&format!(
            ", below even {} there ({})",
            chance_name(c.task),
            points(chance_four)
        ));
    }
    if c.task == Task::Histogram {
        let (at_n, at_four) = (
            Task::most_likely_count(n, c.vocab),
            Task::most_likely_count(4 * n, c.vocab),
        );
        let count = |k: usize| {
            if k == pe_lab_train::tasks::HISTOGRAM_CAP {
                format!("{k} or more")
            } else {
                k.to_string()
            }
        };
        text.push_str(&format!(
            ", while a position-blind model could reach {}",
            points(ceiling_four)
        ));
        if at_n != at_four {
            text.push_str(&format!(
                ": the most likely count of a token is {} at length {} but {} at {}, \
                 counts the model met seldom in training",
                count(at_n),
                n,
                count(at_four),
                4 * n
            ));
        }
    }
    text.push('.');
    text
}

/// Why the encodings at the position-blind ceiling fail, each reason checked on this run.
fn why_blind(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
    blind: &Spreads,
) -> Option<String> {
    let c = &run.config;
    let every = on_every_seed(run.seeds.len());
    let mut reasons = Vec::new();
    for (e, _) in blind {
        if *e == TrainEncoding::None && !c.causal {
            reasons.push(format!(
                "none sees no position: with bidirectional attention every position sees the same \
                 tokens, so it can only guess from its own token and which tokens occur (it ends \
                 within {} points of the ceiling {every})",
                points_number(CEILING_MARGIN)
            ));
        }
        if *e == TrainEncoding::Alibi && !c.causal && c.task == Task::Shift {
            let results = complete
                .iter()
                .find(|(x, _)| x == e)
                .map_or(&[][..], |(_, r)| r.as_slice());
            let weights: Vec<OffsetWeights> = results
                .iter()
                .filter_map(|r| Some(best_offset_head(r, c.shift_k)?.1))
                .collect();
            let back = Spread::of(weights.iter().map(|w| w.back));
            let ahead = Spread::of(weights.iter().map(|w| w.ahead));
            let symmetric = weights
                .iter()
                .all(|w| (w.back - w.ahead).abs() <= 0.25 * w.back.max(w.ahead));
            if weights.len() == results.len() && !weights.is_empty() && symmetric {
                reasons.push(format!(
                    "alibi's bias −m·|i − j| is the same k = {k} places back and k places ahead \
                     and falls with distance on both sides, so no head can single out the token \
                     k back: its most k-back head gives that key a mean weight of {:.3} and the \
                     key k ahead {:.3} (uniform: {:.3}), {every}",
                    back.mean,
                    ahead.mean,
                    weights[0].uniform,
                    k = c.shift_k
                ));
            }
        }
    }
    (!reasons.is_empty()).then(|| format!("{}.", reasons.join("; ")))
}

/// The detailed sentences of a finished run (none while it is running): every encoding at 1×,
/// 2× and 4×, appended or added, what the learned table became, where the trained heads look.
pub fn findings(run: &TrainRun) -> Vec<String> {
    if !run.is_done() {
        return Vec::new();
    }
    let complete = run.complete();
    if complete.is_empty() {
        return Vec::new();
    }
    let c = &run.config;
    let find = |e: TrainEncoding| complete.iter().find(|(x, _)| *x == e).map(|(_, r)| r);
    let mut out = accuracy_by_length(run, &complete);
    if find(TrainEncoding::Learned).is_some() {
        out.push(format!(
            "The learned table has rows for positions 0…{} only: past them nothing is added, and \
             the model sees no position there.",
            c.train_length - 1
        ));
    }
    if let (Some(concat), Some(added)) =
        (find(TrainEncoding::Concat), find(TrainEncoding::Sinusoidal))
    {
        out.push(appended_or_added(run, concat, added));
    }
    if let Some(learned) = find(TrainEncoding::Learned) {
        out.extend(learned_table(run, learned));
    }
    if c.task == Task::Shift {
        out.push(where_heads_look(run, &complete));
    }
    out
}

/// Every encoding at 1×, 2× and 4× the training length, mean and range.
fn accuracy_by_length(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> Vec<String> {
    let c = &run.config;
    let n = c.train_length;
    let seeds = run.seeds.len();
    let mut out = Vec::new();
    for (multiple, factor) in [(0, 1), (1, 2), (2, 4)] {
        let mut items: Vec<(TrainEncoding, Spread)> = complete
            .iter()
            .map(|(e, r)| (*e, at_multiple(r, multiple)))
            .collect();
        crate::model::sort::sort_by_key_f64_descending(&mut items, |(_, s)| s.mean);
        let (ceiling, chance) = baseline_at(run, factor * n);
        out.push(format!(
            "Token accuracy at {factor}× the training length ({}), mean over {} (range): {}; \
             position-blind ceiling {}, chance ({}) {}.",
            factor * n,
            if seeds == 1 {
                "1 seed".to_string()
            } else {
                format!("{seeds} seeds")
            },
            listed(&items),
            points(ceiling),
            chance_name(c.task),
            points(chance)
        ));
    }
    out
}

/// Appending P (concat) against adding it (sinusoidal).
fn appended_or_added(
    run: &TrainRun,
    concat: &[&EncodingReport],
    added: &[&EncodingReport],
) -> String {
    let c = &run.config;
    let every = on_every_seed(run.seeds.len());
    let loss = |r: &[&EncodingReport]| Spread::of(r.iter().map(|r| r.final_loss));
    let (a, b) = (at_multiple(concat, 0), at_multiple(added, 0));
    let order = if a.min > b.max {
        format!("concat is ahead {every}")
    } else if b.min > a.max {
        format!("sinusoidal is ahead {every}")
    } else {
        "which is ahead varies with the seed".to_string()
    };
    format!(
        "Appending P (concat: a token embedding of width {} beside P of width {}) ended at \
         mean loss {} and {} at the training length; adding P to the whole width \
         (sinusoidal) at {} and {}: {order}.",
        c.d - c.d / 2,
        c.d / 2,
        loss_text(loss(concat).mean),
        spread_points(&a),
        loss_text(loss(added).mean),
        spread_points(&b)
    )
}

/// What the learned table became, seed by seed (its translation spread before and after).
fn learned_table(run: &TrainRun, learned: &[&EncodingReport]) -> Option<String> {
    let every = on_every_seed(run.seeds.len());
    let pairs: Vec<(u64, f64, f64)> = learned
        .iter()
        .filter_map(|r| {
            Some((
                r.seed,
                r.translation_spread_initial?,
                r.translation_spread_trained?,
            ))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let each = pairs
        .iter()
        .map(|(seed, before, after)| {
            format!(
                "seed {seed} {} → {}",
                spread_text(*before),
                spread_text(*after)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rose = pairs.iter().filter(|(_, b, a)| a > b).count();
    let direction = if rose == pairs.len() {
        format!("training raised it {every}: the trained table is not closer to depending on i − j only")
    } else if rose == 0 {
        format!(
            "training lowered it {every}: the trained table is closer to depending on i − j only"
        )
    } else {
        format!(
            "training raised it on {rose} of {} seeds and lowered it on the others: no \
             direction holds",
            pairs.len()
        )
    };
    let sinusoidal = learned[0].translation_spread_sinusoidal;
    Some(format!(
        "Translation spread of the learned table's normalised Gram matrix (0 when every \
         entry depends on i − j only; sinusoidal P of the same size: {}), untrained → \
         trained: {each}; {direction}.",
        spread_text(sinusoidal)
    ))
}

/// Where the trained heads look, with noise told apart from a signal.
fn where_heads_look(run: &TrainRun, complete: &[(TrainEncoding, Vec<&EncodingReport>)]) -> String {
    let c = &run.config;
    let mut signal = Vec::new();
    let mut noise = Vec::new();
    for (e, results) in complete {
        let rate = Spread::of(results.iter().filter_map(|r| Some(r.offset_hit_rate?.rate)));
        let real = results
            .iter()
            .all(|r| best_offset_head(r, c.shift_k).is_some_and(|(_, w)| w.back_is_largest));
        if rate.count == 0 {
            continue;
        }
        if real {
            signal.push((*e, rate));
        } else {
            noise.push(*e);
        }
    }
    crate::model::sort::sort_by_key_f64_descending(&mut signal, |(_, s)| s.mean);
    let mut text = format!(
        "On the example, the share of queries whose largest weight (in the best head) is on \
         the token exactly k = {} places back: {}.",
        c.shift_k,
        if signal.is_empty() {
            "no head of any encoding singles it out".to_string()
        } else {
            listed(&signal)
        }
    );
    if !noise.is_empty() {
        text.push_str(&format!(
            " For {} it is noise: on some seed no head gives the key k back more mean weight \
             than it gives some other offset.",
            noise
                .iter()
                .map(|e| e.link_name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    text
}
