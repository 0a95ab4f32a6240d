//! The takeaway and the verdict: which encodings learn the task, which keep it past the training
//! length, and why the failures fail.

use super::*;

/// The training panel's takeaway, in one sentence: before a run is complete, what pressing Train
/// does with these settings; once every seed is done, the verdict's first sentence (the rest of
/// the verdict is shown below it: [`verdict_after_takeaway`]).
pub fn takeaway(run: Option<&TrainRun>, settings: &super::super::TrainSettings) -> String {
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
pub fn takeaway_before_run(settings: &super::super::TrainSettings) -> String {
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
pub(super) struct Classes {
    solved: Spreads,
    blind: Spreads,
    between: Spreads,
}

pub(super) fn classes(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> Classes {
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
pub(super) fn headline(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
    classes: &Classes,
) -> String {
    let mut sentences = vec![who_learns(run, complete, classes)];
    sentences.extend(who_stays_blind(run, complete, &classes.blind));
    sentences.push(past_training_length_in_words(run, complete));
    sentences.join(&crate::training_message!("train-sentence-separator"))
}

/// The headline's first sentence: which encodings learn the task on every seed, which on some
/// seeds (said seed by seed) or only partly; or, where none does, the best.
fn who_learns(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
    classes: &Classes,
) -> String {
    let c = &run.config;
    let every = on_every_seed(run.seeds.len());
    let task =
        crate::training_message!("train-task-words", task = c.task.link_name(), k = c.shift_k);
    let Classes {
        solved, between, ..
    } = classes;
    let means = |items: &[(TrainEncoding, Spread)]| listed_by(items, |s| points(s.mean));
    if solved.is_empty() {
        let best = complete
            .iter()
            .map(|(e, r)| (*e, at_multiple(r, 0)))
            .max_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
        // "on any seed" where no encoding reached the bar on a single seed.
        let any = complete.iter().all(|(_, r)| at_multiple(r, 0).max < SOLVED);
        crate::training_message!(
            "train-headline-learn-none",
            task = &task,
            every = &every,
            any = if any { "any" } else { "every" },
            best = best.map_or("–".into(), |b| means(&[b]))
        )
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
        crate::training_message!(
            "train-headline-learn",
            names = names(solved),
            count = solved.len(),
            task = &task,
            every = &every,
            more = if rest.is_empty() { "none" } else { "some" },
            rest = rest.join(&separator)
        )
    }
}

/// The headline's second sentence: which encodings do no better than a model blind to positions,
/// and why (each reason one the run checks); on the histogram task, that it needs no position.
fn who_stays_blind(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
    blind: &Spreads,
) -> Option<String> {
    let c = &run.config;
    let means = |items: &[(TrainEncoding, Spread)]| listed_by(items, |s| points(s.mean));
    let (ceiling, _) = baseline_at(run, c.train_length);
    if c.task == Task::Histogram {
        let none = complete
            .iter()
            .find(|(e, _)| *e == TrainEncoding::None)
            .map(|(_, r)| points(at_multiple(r, 0).mean));
        Some(crate::training_message!(
            "train-headline-no-position-needed",
            ceiling = points(ceiling),
            none = none.as_deref().unwrap_or("none")
        ))
    } else if !blind.is_empty() {
        let has = |e: TrainEncoding| blind.iter().any(|(x, _)| *x == e);
        // The reasons the run checks (`why_blind` gives their numbers): `none` sees no
        // position under bidirectional attention; ALiBi's bias is largest at the query itself
        // on shift, whatever the mask.
        let none = has(TrainEncoding::None) && !c.causal;
        let alibi = has(TrainEncoding::Alibi) && c.task == Task::Shift;
        Some(crate::training_message!(
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
        ))
    } else {
        None
    }
}

/// The headline's last sentence: which encodings still do the task on sequences 4× the training
/// length, with sinusoidal's fall (as counts where only a few tokens are right).
fn past_training_length_in_words(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> String {
    let c = &run.config;
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
    if kept.is_empty() {
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
    }
}

/// Every encoding's spread of accuracy at one length.
pub(super) type Spreads = Vec<(TrainEncoding, Spread)>;

/// At the training length: solved on every seed, at the position-blind ceiling on every seed, or
/// varying.
pub(super) fn at_training_length(run: &TrainRun, classes: &Classes) -> String {
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
pub(super) fn past_training_length(
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
pub(super) fn none_keeps_it(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> String {
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
pub(super) fn why_blind(run: &TrainRun, blind: &Spreads) -> Option<String> {
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
