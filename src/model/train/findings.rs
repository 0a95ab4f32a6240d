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

/// Items joined by the language's list separator: "rope, shaw".
fn joined<S: AsRef<str>>(items: &[S]) -> String {
    let separator = crate::training_message!("train-list-separator");
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(&separator)
}

/// "rope 100%, shaw 98% (96–100)": encodings with a spread each, in the order given.
fn listed(items: &[(TrainEncoding, Spread)]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(e, s)| {
            crate::training_message!(
                "train-listed-item",
                name = e.link_name(),
                value = spread_points(s)
            )
        })
        .collect();
    joined(&items)
}

/// "rope", "rope and shaw", "none, rope and shaw".
fn names(items: &[(TrainEncoding, Spread)]) -> String {
    let names: Vec<&str> = items.iter().map(|(e, _)| e.link_name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => {
            crate::training_message!("train-list-and", rest = joined(rest), last = *last)
        }
    }
}

/// "on all 3 seeds", "on both seeds", "on the one seed trained".
fn on_every_seed(seeds: usize) -> String {
    crate::training_message!("train-on-every-seed", seeds = seeds)
}

/// What "chance" is on the run's task: uniform guessing, or on `histogram` always guessing the
/// most likely count.
pub fn chance_name(task: Task) -> String {
    crate::training_message!("train-chance-name", task = task.link_name())
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
        return crate::training_message!("train-takeaway-training");
    }
    takeaway_before_run(settings)
}

/// The takeaway before a run: what pressing Train does with these settings (the page writes it
/// before the training module is loaded, from its own catalog).
pub fn takeaway_before_run(settings: &super::TrainSettings) -> String {
    let task = settings.config.task.link_name();
    match settings.encodings.len() {
        1 => crate::message!(
            "train-takeaway-press-one",
            task = task,
            seeds = settings.seeds
        ),
        many => crate::message!(
            "train-takeaway-press-many",
            encodings = many,
            task = task,
            seeds = settings.seeds
        ),
    }
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
        (false, true) => crate::training_message!(
            "train-verdict-all-solve",
            length = n,
            every = &every,
            list = listed(&solved)
        ),
        (false, false) => crate::training_message!(
            "train-verdict-some-solve",
            length = n,
            names = names(&solved),
            count = solved.len(),
            every = &every,
            solved = points(SOLVED),
            list = listed(&solved)
        ),
        (true, _) => crate::training_message!(
            "train-verdict-none-solves",
            length = n,
            solved = points(SOLVED),
            every = &every
        ),
    };
    if !blind.is_empty() {
        first.push_str(&crate::training_message!(
            "train-verdict-blind",
            names = names(&blind),
            count = blind.len(),
            ceiling = points(ceiling),
            list = listed(&blind)
        ));
    }
    if !between.is_empty() {
        let varies: Vec<_> = between
            .iter()
            .filter(|(_, s)| points_number(s.min) != points_number(s.max))
            .collect();
        first.push_str(&if varies.len() == between.len() && seeds > 1 {
            crate::training_message!("train-verdict-short-varying", list = listed(&between))
        } else {
            crate::training_message!("train-verdict-short", list = listed(&between))
        });
    }
    if c.task == Task::Histogram {
        first.push_str(&crate::training_message!(
            "train-verdict-no-position-needed",
            ceiling = points(ceiling)
        ));
    } else if chance.is_finite() {
        first.push_str(&crate::training_message!(
            "train-verdict-chance",
            chance = points(chance)
        ));
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
    if !kept_four.is_empty() {
        let mut text = crate::training_message!(
            "train-past-still-four",
            names = names(&kept_four),
            count = kept_four.len(),
            length = 4 * n,
            every = &every,
            list = listed(&kept_four)
        );
        if let Some(next) = next_four {
            let item = listed(&[next]);
            text.push_str(&if next.1.count > 1
                && points_number(next.1.min) != points_number(next.1.max)
            {
                crate::training_message!("train-past-next-best-varying", item = item)
            } else {
                crate::training_message!("train-past-next-best", item = item)
            });
        }
        text
    } else if !kept_twice.is_empty() {
        crate::training_message!(
            "train-past-still-twice",
            names = names(&kept_twice),
            count = kept_twice.len(),
            twice = 2 * n,
            every = &every,
            four = 4 * n,
            best = best_four.map_or("–".into(), |b| listed(&[b]))
        )
    } else {
        none_keeps_it(run, complete)
    }
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
    let (at_n, at_four) = (
        Task::most_likely_count(n, c.vocab),
        Task::most_likely_count(4 * n, c.vocab),
    );
    let count = |k: usize| {
        if k == pe_lab_train::tasks::HISTOGRAM_CAP {
            crate::training_message!("train-count-or-more", count = k)
        } else {
            k.to_string()
        }
    };
    let blind = match (c.task == Task::Histogram, at_n != at_four) {
        (false, _) => "none",
        (true, false) => "ceiling",
        (true, true) => "counts",
    };
    crate::training_message!(
        "train-past-none-keeps",
        four = 4 * n,
        highest = points(highest),
        below = if highest < chance_four { "yes" } else { "no" },
        chance_name = chance_name(c.task),
        chance = points(chance_four),
        blind = blind,
        ceiling = points(ceiling_four),
        count_short = count(at_n),
        length = n,
        count_long = count(at_four)
    )
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
            reasons.push(crate::training_message!(
                "train-why-none",
                margin = points_number(CEILING_MARGIN),
                every = &every
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
                reasons.push(crate::training_message!(
                    "train-why-alibi",
                    k = c.shift_k,
                    back = format!("{:.3}", back.mean),
                    ahead = format!("{:.3}", ahead.mean),
                    uniform = format!("{:.3}", weights[0].uniform),
                    every = &every
                ));
            }
        }
    }
    (!reasons.is_empty()).then(|| {
        let separator = crate::training_message!("train-clause-separator");
        crate::training_message!("train-reasons", reasons = reasons.join(&separator))
    })
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
        out.push(crate::training_message!(
            "train-findings-learned-rows",
            last = c.train_length - 1
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
        out.push(crate::training_message!(
            "train-findings-by-length",
            factor = factor,
            length = factor * n,
            seeds = seeds,
            list = listed(&items),
            ceiling = points(ceiling),
            chance_name = chance_name(c.task),
            chance = points(chance)
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
        "concat"
    } else if b.min > a.max {
        "sinusoidal"
    } else {
        "varies"
    };
    crate::training_message!(
        "train-findings-appended",
        token_width = c.d - c.d / 2,
        p_width = c.d / 2,
        concat_loss = loss_text(loss(concat).mean),
        concat_accuracy = spread_points(&a),
        added_loss = loss_text(loss(added).mean),
        added_accuracy = spread_points(&b),
        order = order,
        every = &every
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
    let each: Vec<String> = pairs
        .iter()
        .map(|(seed, before, after)| {
            crate::training_message!(
                "train-findings-learned-seed",
                seed = seed.to_string(),
                before = spread_text(*before),
                after = spread_text(*after)
            )
        })
        .collect();
    let rose = pairs.iter().filter(|(_, b, a)| a > b).count();
    let direction = if rose == pairs.len() {
        "raised"
    } else if rose == 0 {
        "lowered"
    } else {
        "mixed"
    };
    let sinusoidal = learned[0].translation_spread_sinusoidal;
    Some(crate::training_message!(
        "train-findings-spread",
        sinusoidal = spread_text(sinusoidal),
        each = joined(&each),
        direction = direction,
        every = &every,
        rose = rose,
        seeds = pairs.len()
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
    let mut text = if signal.is_empty() {
        crate::training_message!("train-findings-heads-none", k = c.shift_k)
    } else {
        crate::training_message!(
            "train-findings-heads",
            k = c.shift_k,
            list = listed(&signal)
        )
    };
    if !noise.is_empty() {
        let names: Vec<&str> = noise.iter().map(|e| e.link_name()).collect();
        text.push_str(&crate::training_message!(
            "train-findings-heads-noise",
            names = joined(&names)
        ));
    }
    text
}

#[cfg(test)]
mod chinese_tests {
    use super::super::{device, TrainSettings};
    use super::*;
    use crate::model::messages::{install_source, use_english, Computed, Training};

    /// A run of made-up reports (two seeds), enough for the verdict and the findings: the train
    /// tests' run, with learned translation spreads so that their finding is written too.
    fn made_up_run() -> TrainRun {
        let mut run = super::super::tests::made_up_run(&[
            (TrainEncoding::Rope, [1.0, 0.99]),
            (TrainEncoding::Learned, [1.0, 0.889]),
            (TrainEncoding::None, [0.19, 0.21]),
        ]);
        for report in run
            .runs
            .iter_mut()
            .flatten()
            .filter_map(|r| r.result.as_mut())
        {
            report.translation_spread_initial = Some(0.25);
            report.translation_spread_trained = Some(0.125);
        }
        run
    }

    fn has_chinese(text: &str) -> bool {
        text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    /// The numbers of a sentence, in order ("94% (89–100)" → 94, 89, 100).
    fn numbers(text: &str) -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|s| s.trim_matches('.'))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn the_verdict_and_the_takeaway_are_chinese_with_the_same_numbers() {
        let run = made_up_run();
        let mut settings = TrainSettings::default();
        settings.set_encodings(&[TrainEncoding::Rope]);
        let english_verdict = verdict(&run);
        let english_findings = findings(&run);
        let english_takeaway = takeaway(None, &settings);
        let english_many = takeaway(None, &TrainSettings::default());
        assert!(english_verdict[0].starts_with("At the training length ("));

        install_source::<Training>("zh", include_str!("../../../locales/training/zh.ftl")).unwrap();
        install_source::<Computed>("zh", include_str!("../../../locales/computed/zh.ftl")).unwrap();
        let chinese_verdict = verdict(&run);
        let chinese_findings = findings(&run);
        let chinese_takeaway = takeaway(None, &settings);
        let chinese_many = takeaway(None, &TrainSettings::default());
        use_english::<Training>();
        use_english::<Computed>();

        let pairs = english_verdict
            .iter()
            .zip(&chinese_verdict)
            .chain(english_findings.iter().zip(&chinese_findings))
            .chain([
                (&english_takeaway, &chinese_takeaway),
                (&english_many, &chinese_many),
            ]);
        for (english, chinese) in pairs {
            assert!(has_chinese(chinese), "{chinese}");
            assert!(!has_chinese(english), "{english}");
            assert_eq!(
                sorted(numbers(english)),
                sorted(numbers(chinese)),
                "{english}\n{chinese}"
            );
        }
        assert_eq!(english_verdict.len(), chinese_verdict.len());
        assert_eq!(english_findings.len(), chinese_findings.len());
        assert!(chinese_verdict[0].contains("learned 94% (89–100)"));
        // English again once the Chinese catalogs are gone.
        assert_eq!(verdict(&run), english_verdict);
        assert_eq!(takeaway(None, &settings), english_takeaway);
    }

    /// The trainer's sentences the page writes again from a trial's rates are the training
    /// crate's, word for word, in English.
    #[test]
    fn the_trainer_sentences_are_the_training_crates_in_english() {
        let trial = |cpu: f64, gpu: Option<f64>, first_step_only: bool| device::TrialRates {
            encoding: TrainEncoding::Sinusoidal,
            cpu_steps_per_second: cpu,
            gpu_steps_per_second: gpu,
            gpu_setup_seconds: gpu.map(|_| 4.1),
            gpu_first_step_only: first_step_only,
            gpu_error: gpu.is_none().then(|| "no WebGPU adapter".to_string()),
        };
        for rates in [
            trial(400.0, Some(1200.0), false),
            trial(400.0, Some(500.0), false),
            trial(400.0, Some(499.0), false),
            trial(431.7, Some(4.567), false),
            trial(244.0, Some(0.5), true),
            trial(400.0, None, false),
            trial(f64::NAN, Some(1e9), false),
            trial(400.0, Some(f64::INFINITY), false),
            trial(12.5, Some(15.0), true),
            trial(2.0, Some(25.0), true),
        ] {
            let choice = device::choose_from_trial(&rates);
            assert_eq!(
                super::super::trial_reason(choice.device, &rates),
                choice.reason
            );
        }
        let no_reason = device::TrialRates {
            gpu_error: None,
            ..trial(400.0, None, false)
        };
        assert_eq!(
            super::super::trial_reason(device::TrainDevice::Cpu, &no_reason),
            device::choose_from_trial(&no_reason).reason
        );
        assert_eq!(
            super::super::fallback_reason("lost"),
            device::fallback_reason("lost")
        );
        for request in [
            device::TrainerRequest::Auto,
            device::TrainerRequest::Cpu,
            device::TrainerRequest::Gpu,
        ] {
            for why in [None, Some("chosen by ?compute=cpu")] {
                assert_eq!(
                    super::super::choose_before_trial(request, why),
                    device::choose_before_trial(request, why)
                );
            }
        }
        assert_eq!(super::super::will_measure_text(), device::WILL_MEASURE);
        assert_eq!(super::super::measuring_text(), device::MEASURING);
    }

    /// A clamping notice keeps the training crate's English words.
    #[test]
    fn notices_keep_their_english_words() {
        let settings = TrainSettings::default();
        let mut config = settings.config.clone();
        config.train_length = 500;
        config.d = 30;
        config.heads = 4;
        config.learning_rate = 7.0;
        let (_, notices) = config.clamp();
        assert!(notices.len() >= 3, "{notices:?}");
        for notice in &notices {
            let key = super::super::field_key(notice.field);
            assert_eq!(
                super::super::notice_text(notice),
                format!(
                    "{key} = {}: {}; using {key} = {}.",
                    crate::model::query::quote(&notice.requested),
                    notice.reason,
                    notice.used
                )
            );
        }
    }
}
