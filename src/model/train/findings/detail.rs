//! The detailed findings below the verdict: every encoding at 1×, 2× and 4×, appended or added,
//! what the learned table became, where the trained heads look.

use super::*;

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
pub(super) fn accuracy_by_length(
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

/// Appending P (concat) against adding it (sinusoidal).
pub(super) fn appended_or_added(
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
pub(super) fn learned_table(run: &TrainRun, learned: &[&EncodingReport]) -> Option<String> {
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
pub(super) fn where_heads_look(
    run: &TrainRun,
    complete: &[(TrainEncoding, Vec<&EncodingReport>)],
) -> String {
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
