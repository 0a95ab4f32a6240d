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
    // Two significant figures, a trailing zero included (0.40, not 0.4): one decimal from 1 to
    // 10, more below.
    let decimals = (1.0 - p.abs().log10().floor()).max(1.0) as usize;
    format!("{p:.decimals$}")
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
    listed_by(items, spread_points)
}

/// "rope 100%, shaw 98%": encodings each with `value` of its spread, in the order given.
fn listed_by(items: &[(TrainEncoding, Spread)], value: impl Fn(&Spread) -> String) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|(e, s)| {
            crate::training_message!("train-listed-item", name = e.link_name(), value = value(s))
        })
        .collect();
    joined(&items)
}

/// "rope", "rope and shaw", "none, rope and shaw".
fn names(items: &[(TrainEncoding, Spread)]) -> String {
    let names: Vec<&str> = items.iter().map(|(e, _)| e.link_name()).collect();
    and_list(&names)
}

/// Items as the language lists them: "a", "a and b", "a, b and c".
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            crate::training_message!("train-list-and", rest = joined(rest), last = last.as_ref())
        }
    }
}

/// "1/16": an ALiBi slope, as a fraction where it is one (the slopes of a power-of-two number of
/// heads are 1/2, 1/4, …), otherwise with three decimals.
fn slope_text(slope: f64) -> String {
    let inverse = 1.0 / slope;
    if slope > 0.0 && (inverse - inverse.round()).abs() < 1e-9 {
        format!("1/{}", inverse.round())
    } else {
        format!("{slope:.3}")
    }
}

/// A chance level exactly (a uniform guess among `vocab` is 100/vocab percent: 6.25%, 12.5%),
/// or in the page's points where it is not a short decimal.
fn chance_text(task: Task, chance: f64) -> String {
    if task == Task::Histogram || !chance.is_finite() {
        return points(chance);
    }
    let text = format!("{:.2}", 100.0 * chance);
    format!("{}%", text.trim_end_matches('0').trim_end_matches('.'))
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
/// places back (over the queries that also have a key `offset` ahead), the uniform weight 1/n,
/// and whether the key `offset` back gets more mean weight than any other offset (a signal, not
/// noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OffsetWeights {
    pub back: f64,
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

/// The verdict (none while the run is going): its headline, which the panel's takeaway shows,
/// then the numbers behind it, which the page keeps under "more": at the training length, past
/// it, and why the failures at the training length fail.
pub fn verdict(run: &TrainRun) -> Vec<String> {
    if !run.is_done() {
        return Vec::new();
    }
    let complete = run.complete();
    let classes = classes(run, &complete);
    let mut out = vec![
        headline(run, &complete, &classes),
        at_training_length(run, &classes),
        past_training_length(run, &complete),
    ];
    if let Some(reasons) = why_blind(run, &classes.blind) {
        out.push(reasons);
    }
    out
}

/// Which encodings solve the task on every seed at the training length, which stay at the
/// position-blind ceiling on every seed, and which lie between (the verdict's classes).
struct Classes {
    solved: Spreads,
    blind: Spreads,
    between: Spreads,
}

fn classes(run: &TrainRun, complete: &[(TrainEncoding, Vec<&EncodingReport>)]) -> Classes {
    let c = &run.config;
    let (ceiling, _) = baseline_at(run, c.train_length);
    let mut out = Classes {
        solved: Vec::new(),
        blind: Vec::new(),
        between: Vec::new(),
    };
    for (e, results) in complete {
        let s = at_multiple(results, 0);
        if s.min >= SOLVED {
            out.solved.push((*e, s));
        } else if s.max < ceiling + CEILING_MARGIN && c.task != Task::Histogram {
            out.blind.push((*e, s));
        } else {
            out.between.push((*e, s));
        }
    }
    out
}

/// The headline: the task's question answered in plain words, in at most three sentences:
/// which encodings learn the task (on every seed), which do no better than a model blind to
/// positions and why (each reason one the run checks: `none` has no position; ALiBi's bias only
/// falls with distance), and which still do it on sequences 4× as long, with sinusoidal's fall.
/// Means only: the ranges are in the sentences behind it.
fn headline(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
    classes: &Classes,
) -> String {
    let c = &run.config;
    let every = on_every_seed(run.seeds.len());
    let task =
        crate::training_message!("train-task-words", task = c.task.link_name(), k = c.shift_k);
    let Classes {
        solved,
        blind,
        between,
    } = classes;
    let means = |items: &[(TrainEncoding, Spread)]| listed_by(items, |s| points(s.mean));
    let mut sentences = Vec::new();
    if solved.is_empty() {
        let best = complete
            .iter()
            .map(|(e, r)| (*e, at_multiple(r, 0)))
            .max_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
        // "on any seed" where no encoding reached the bar on a single seed.
        let any = complete.iter().all(|(_, r)| at_multiple(r, 0).max < SOLVED);
        sentences.push(crate::training_message!(
            "train-headline-learn-none",
            task = &task,
            every = &every,
            any = if any { "any" } else { "every" },
            best = best.map_or("–".into(), |b| means(&[b]))
        ));
    } else {
        // Those between: solved on some seeds, said seed by seed ("learned on 2 of 3 seeds (89%
        // on the other)": a mean of 96% would read as a pass), or on none (their means; the
        // ranges are in the sentences behind it).
        let mut rest = Vec::new();
        for (e, results) in complete {
            let at: Vec<f64> = results.iter().map(|r| r.accuracy_at_multiples[0]).collect();
            let passed = at.iter().filter(|&&a| a >= SOLVED).count();
            if passed == 0 || passed == at.len() || !between.iter().any(|(x, _)| x == e) {
                continue;
            }
            let others: Vec<String> = at
                .iter()
                .filter(|&&a| a < SOLVED)
                .map(|&a| points(a))
                .collect();
            rest.push(crate::training_message!(
                "train-headline-some-seeds",
                name = e.link_name(),
                solved = passed,
                seeds = at.len(),
                count = others.len(),
                others = and_list(&others)
            ));
        }
        let partly: Spreads = between
            .iter()
            .filter(|(_, s)| s.max < SOLVED)
            .cloned()
            .collect();
        if !partly.is_empty() {
            rest.push(crate::training_message!(
                "train-headline-partly",
                names = names(&partly),
                list = joined(
                    &partly
                        .iter()
                        .map(|(_, s)| points(s.mean))
                        .collect::<Vec<_>>()
                )
            ));
        }
        let separator = crate::training_message!("train-clause-separator");
        sentences.push(crate::training_message!(
            "train-headline-learn",
            names = names(solved),
            count = solved.len(),
            task = &task,
            every = &every,
            more = if rest.is_empty() { "none" } else { "some" },
            rest = rest.join(&separator)
        ));
    }
    let (ceiling, _) = baseline_at(run, c.train_length);
    if c.task == Task::Histogram {
        let none = complete
            .iter()
            .find(|(e, _)| *e == TrainEncoding::None)
            .map(|(_, r)| points(at_multiple(r, 0).mean));
        sentences.push(crate::training_message!(
            "train-headline-no-position-needed",
            ceiling = points(ceiling),
            none = none.as_deref().unwrap_or("none")
        ));
    } else if !blind.is_empty() {
        let has = |e: TrainEncoding| blind.iter().any(|(x, _)| *x == e);
        // The reasons the run checks (`why_blind` gives their numbers): `none` sees no
        // position under bidirectional attention; ALiBi's bias is largest at the query itself
        // on shift, whatever the mask.
        let none = has(TrainEncoding::None) && !c.causal;
        let alibi = has(TrainEncoding::Alibi) && c.task == Task::Shift;
        sentences.push(crate::training_message!(
            "train-headline-blind",
            names = names(blind),
            count = blind.len(),
            ceiling = points(ceiling),
            list = means(blind),
            k = c.shift_k,
            why = match (none, alibi) {
                (true, true) => "both",
                (true, false) => "none",
                (false, true) => "alibi",
                (false, false) => "other",
            }
        ));
    }
    let four: Vec<(TrainEncoding, Spread)> = complete
        .iter()
        .map(|(e, r)| (*e, at_multiple(r, 2)))
        .collect();
    let kept: Spreads = four
        .iter()
        .filter(|(_, s)| s.min >= SOLVED)
        .cloned()
        .collect();
    let sinusoidal = complete
        .iter()
        .find(|(e, _)| *e == TrainEncoding::Sinusoidal)
        .map(|(_, r)| (at_multiple(r, 0), at_multiple(r, 2)));
    let tokens = evaluated_tokens(c, 4 * c.train_length);
    let (falls, from, to) = match sinusoidal {
        Some((at_n, at_four)) if at_four.min < SOLVED => {
            let most = (at_four.max * tokens as f64).round() as usize;
            let to = if tokens > 0 && most < FEW_TOKENS {
                crate::training_message!(
                    "train-headline-few-tokens",
                    count = most,
                    tokens = grouped(tokens)
                )
            } else {
                points(at_four.mean)
            };
            ("falls", points(at_n.mean), to)
        }
        _ => ("kept", String::new(), String::new()),
    };
    let highest = four.iter().fold(0.0f64, |m, (_, s)| m.max(s.max));
    sentences.push(if kept.is_empty() {
        crate::training_message!(
            "train-headline-past-none",
            four = 4 * c.train_length,
            sinusoidal = falls,
            from = &from,
            to = &to,
            highest = points(highest)
        )
    } else {
        crate::training_message!(
            "train-headline-past-kept",
            four = 4 * c.train_length,
            names = names(&kept),
            count = kept.len(),
            sinusoidal = falls,
            from = &from,
            to = &to
        )
    });
    sentences.join(&crate::training_message!("train-sentence-separator"))
}

/// Every encoding's spread of accuracy at one length.
type Spreads = Vec<(TrainEncoding, Spread)>;

/// At the training length: solved on every seed, at the position-blind ceiling on every seed, or
/// varying.
fn at_training_length(run: &TrainRun, classes: &Classes) -> String {
    let c = &run.config;
    let n = c.train_length;
    let seeds = run.seeds.len();
    let every = on_every_seed(seeds);
    let (ceiling, chance) = baseline_at(run, n);
    let Classes {
        solved,
        blind,
        between,
    } = classes;
    let mut first = match (solved.is_empty(), between.is_empty() && blind.is_empty()) {
        (false, true) => crate::training_message!(
            "train-verdict-all-solve",
            length = n,
            every = &every,
            list = listed(solved)
        ),
        (false, false) => crate::training_message!(
            "train-verdict-some-solve",
            length = n,
            names = names(solved),
            count = solved.len(),
            every = &every,
            solved = points(SOLVED),
            list = listed(solved)
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
            names = names(blind),
            count = blind.len(),
            ceiling = points(ceiling),
            list = listed(blind)
        ));
    }
    if !between.is_empty() {
        let varies: Vec<_> = between
            .iter()
            .filter(|(_, s)| points_number(s.min) != points_number(s.max))
            .collect();
        first.push_str(&if varies.len() == between.len() && seeds > 1 {
            crate::training_message!(
                "train-verdict-short-varying",
                list = listed(between),
                count = between.len()
            )
        } else {
            crate::training_message!("train-verdict-short", list = listed(between))
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
            chance = chance_text(c.task, chance)
        ));
    }
    first
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
    crate::training_message!(
        "train-past-none-keeps",
        four = 4 * n,
        highest = points(highest),
        below = if highest < chance_four { "yes" } else { "no" },
        chance_name = chance_name(c.task),
        chance = chance_text(c.task, chance_four),
        blind = if c.task == Task::Histogram {
            "ceiling"
        } else {
            "none"
        },
        ceiling = points(ceiling_four)
    )
}

/// Why the encodings at the position-blind ceiling fail, each reason checked on this run.
fn why_blind(run: &TrainRun, blind: &Spreads) -> Option<String> {
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
        // ALiBi's bias −m·|i − j| is largest at the query itself and falls with distance, so it
        // cannot favour the key k back over nearer ones, whatever the mask (a native test trains
        // it with the causal mask, where no key lies ahead, and it stays blind there too); its
        // slopes bound how much it moves a score across the training length.
        if *e == TrainEncoding::Alibi && c.task == Task::Shift {
            let slopes = crate::math::alibi::slopes(c.heads);
            let steepest = slopes.iter().copied().fold(0.0f64, f64::max);
            let slopes: Vec<String> = slopes.into_iter().map(slope_text).collect();
            reasons.push(crate::training_message!(
                "train-why-alibi",
                k = c.shift_k,
                heads = c.heads,
                slopes = and_list(&slopes),
                length = c.train_length,
                span = format!(
                    "{:.2}",
                    steepest * (c.train_length.saturating_sub(1)) as f64
                ),
                every = &every
            ));
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
        let mut items: Vec<(TrainEncoding, Spread, &[&EncodingReport])> = complete
            .iter()
            .map(|(e, r)| (*e, at_multiple(r, multiple), r.as_slice()))
            .collect();
        crate::model::sort::sort_by_key_f64_descending(&mut items, |(_, s, _)| s.mean);
        let tokens = evaluated_tokens(c, factor * n);
        let items: Vec<String> = items
            .iter()
            .map(|(e, s, reports)| {
                // A few tokens are said as counts, seed by seed: "1, 1 and 0 of 4,096 tokens"
                // rather than a mean of 0.016% (0–0.024).
                let counts: Vec<usize> = reports
                    .iter()
                    .map(|r| (r.accuracy_at_multiples[multiple] * tokens as f64).round() as usize)
                    .collect();
                if tokens > 0 && counts.iter().all(|&k| k < FEW_TOKENS) {
                    let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
                    crate::training_message!(
                        "train-listed-counts",
                        name = e.link_name(),
                        counts = and_list(&counts),
                        tokens = grouped(tokens)
                    )
                } else {
                    crate::training_message!(
                        "train-listed-item",
                        name = e.link_name(),
                        value = spread_points(s)
                    )
                }
            })
            .collect();
        let (ceiling, chance) = baseline_at(run, factor * n);
        out.push(crate::training_message!(
            "train-findings-by-length",
            factor = factor,
            length = factor * n,
            seeds = seeds,
            list = joined(&items),
            ceiling = points(ceiling),
            chance_name = chance_name(c.task),
            chance = chance_text(c.task, chance)
        ));
    }
    out
}

/// Below this many tokens right (on every seed), an accuracy is said as counts.
const FEW_TOKENS: usize = 10;

/// The tokens with a target in one evaluation at `length`: every position of every sequence,
/// but on `shift` the first k, which have no token k back.
fn evaluated_tokens(c: &pe_lab_train::TrainConfig, length: usize) -> usize {
    let per_sequence = match c.task {
        Task::Shift => length.saturating_sub(c.shift_k),
        _ => length,
    };
    pe_lab_train::compare::EVAL_SAMPLES * per_sequence
}

/// A whole number with its thousands grouped: 4096 → "4,096".
fn grouped(value: usize) -> String {
    crate::model::thousands::group_thousands(&value.to_string(), ',')
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
    // Seed by seed: concat's final loss against sinusoidal's on the same seed.
    let pairs: Vec<(f64, f64)> = concat
        .iter()
        .filter_map(|x| {
            let y = added.iter().find(|y| y.seed == x.seed)?;
            Some((x.final_loss, y.final_loss))
        })
        .collect();
    let concat_lower = pairs.iter().filter(|(x, y)| x < y).count();
    let sinusoidal_lower = pairs.iter().filter(|(x, y)| y < x).count();
    let lower = if concat_lower == pairs.len() {
        "all"
    } else if sinusoidal_lower == pairs.len() {
        "none"
    } else {
        "some"
    };
    crate::training_message!(
        "train-findings-appended",
        token_width = c.d - c.d / 2,
        p_width = c.d / 2,
        concat_loss = loss_text(loss(concat).mean),
        concat_accuracy = spread_points(&a),
        added_loss = loss_text(loss(added).mean),
        added_accuracy = spread_points(&b),
        lower = lower,
        concat_lower = concat_lower,
        seeds = pairs.len(),
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
    // Per encoding, the seeds on which no head gives the key k back more mean weight than every
    // other offset: said seed by seed (one head of one seed can be a clear signal where the
    // others are noise).
    let mut noise: Vec<(TrainEncoding, Vec<u64>)> = Vec::new();
    for (e, results) in complete {
        let rate = Spread::of(results.iter().filter_map(|r| Some(r.offset_hit_rate?.rate)));
        if rate.count == 0 {
            continue;
        }
        let noisy: Vec<u64> = results
            .iter()
            .filter(|r| !best_offset_head(r, c.shift_k).is_some_and(|(_, w)| w.back_is_largest))
            .map(|r| r.seed)
            .collect();
        if noisy.is_empty() {
            signal.push((*e, rate));
        } else {
            noise.push((*e, noisy));
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
        let items: Vec<String> = noise
            .iter()
            .map(|(e, seeds)| {
                let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
                crate::training_message!(
                    "train-findings-heads-noise-item",
                    name = e.link_name(),
                    count = seeds.len(),
                    seeds = and_list(&seeds)
                )
            })
            .collect();
        // Items that hold lists of their own, so joined by the clause separator ("; ").
        let separator = crate::training_message!("train-clause-separator");
        text.push_str(&crate::training_message!(
            "train-findings-heads-noise",
            list = items.join(&separator)
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
        assert!(english_verdict[1].starts_with("At the training length ("));

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
        assert!(chinese_verdict[1].contains("learned 94% (89–100)"));
        assert!(chinese_verdict[0].contains("复制 3 个位置之前的词元"));
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
