//! The training panel's figures and read-outs, drawn from a [`TrainRun`]: the loss of every
//! encoding (log scale, live), accuracy against sequence length with the training length marked,
//! the learned table beside the sinusoidal P of its size and both normalised Gram matrices, a
//! trained model's attention map, the table of results and the findings. This module spreads
//! their drawing over frames and writes the read-outs; the line charts are drawn in
//! `train_charts`, the heatmaps in `train_maps`.

#[path = "train_charts.rs"]
mod charts;
#[path = "train_maps.rs"]
mod maps;

use pe_lab_train::protocol::{EncodingReport, TrainDevice};
use web_sys::HtmlCanvasElement;

use super::super::dom;
use super::super::error::WebError;
use super::super::surface;
use super::canvas_message;
use super::train::TrainCtx;
use super::train::TrainDom;
use crate::model::train::findings::{self, loss_text, points, points_number};
use crate::model::train::run::{Spread, TrainRun};
use crate::model::train::TrainEncoding;
use charts::{draw_accuracy, draw_loss};
use maps::{draw_attention, draw_learned_tables, draw_p_tables};

/// The line under the buttons before any run (the page writes it before the training module is
/// loaded, from its own catalog).
pub fn progress_before_run() -> String {
    crate::message!("train-progress-not-trained")
}

/// The line under the buttons: what the run is doing, or what it did.
pub fn progress_text(run: Option<&TrainRun>, settings_changed: bool) -> String {
    let Some(run) = run else {
        return progress_before_run();
    };
    let device = match run.device {
        Some(TrainDevice::Gpu) => "gpu",
        _ => "cpu",
    };
    let steps = run.steps_done();
    let total = run.config.steps;
    let rate = format!("{:.0}", run.steps_per_second());
    let seeds = run.seeds.len();
    let seed = run
        .seeds
        .get(run.current_seed())
        .map_or_else(String::new, u64::to_string);
    let index = run.current_seed() + 1;
    let mut text = if let Some(failure) = &run.failure {
        crate::training_message!(
            "train-progress-stopped",
            steps = steps,
            total = total,
            failure = failure
        )
    } else if run.is_measuring() {
        crate::training_message!("train-progress-starting", total = total)
    } else if run.is_done() {
        crate::training_message!(
            "train-progress-done",
            encodings = run.encodings.len(),
            seeds = seeds,
            total = total,
            seconds = format!("{:.1}", run.wall_seconds),
            rate = rate,
            workers = run.workers,
            device = device
        )
    } else if steps < total {
        crate::training_message!(
            "train-progress-training",
            seeds = seeds,
            seed = seed,
            index = index,
            steps = steps,
            total = total,
            rate = rate,
            workers = run.workers,
            device = device
        )
    } else {
        let (done, all) = run.evaluations();
        crate::training_message!(
            "train-progress-measuring",
            seeds = seeds,
            seed = seed,
            index = index,
            done = done,
            all = all
        )
    };
    if run.paused && run.is_running() {
        text.push_str(&crate::training_message!("train-progress-paused"));
    }
    if settings_changed {
        text.push_str(&crate::training_message!("train-progress-settings-changed"));
    }
    text
}

/// What the figures other than the loss chart are drawn from: while it is unchanged (a run
/// reporting its losses) only the loss chart and the table are drawn again, so that the main
/// thread's work per report stays small.
pub fn static_key(ctx: &TrainCtx, run: Option<&TrainRun>, chosen: Option<TrainEncoding>) -> String {
    format!(
        "{:?}|{}|{:?}|{}|{}|{}",
        // What those figures show changes when a first seed's result comes in (the learned table,
        // the attention maps) or an encoding's last seed does (accuracy, the verdict), not with
        // every seed's result.
        run.map(|r| (r.id, r.first_seed_results().count(), r.complete().len())),
        ctx.style.background.css(),
        chosen,
        ctx.train.config.train_length,
        ctx.train.config.d,
        ctx.style.label_px
    )
}

/// The first drawing stage (see [`draw`]) with a figure that must be drawn again although
/// `static_key` is unchanged: its canvas was resized, moved to a screen of another pixel ratio,
/// or (when `count_undrawn`) never drawn. `None`: every figure is up to date. The loss chart is
/// drawn in every frame of a run, and in stage 0 before one.
pub fn first_stage_out_of_date(
    dom: &TrainDom,
    has_run: bool,
    count_undrawn: bool,
) -> Option<usize> {
    let stages: [Vec<&HtmlCanvasElement>; STAGES] = if has_run {
        [
            vec![&dom.accuracy],
            vec![&dom.sinusoid, &dom.gram_p],
            vec![&dom.table, &dom.gram],
            vec![&dom.attention],
        ]
    } else {
        [
            vec![&dom.loss, &dom.accuracy, &dom.attention],
            vec![&dom.sinusoid, &dom.gram_p],
            vec![&dom.table, &dom.gram],
            Vec::new(),
        ]
    };
    stages.iter().position(|canvases| {
        canvases.iter().any(|c| {
            surface::out_of_date(c) || (count_undrawn && !c.has_attribute("data-logical-width"))
        })
    })
}

/// How many groups [`draw`] spreads the figures other than the loss chart over, one per frame.
const STAGES: usize = 4;

/// The figures drawn in one frame: the loss chart and the table always; when the other figures
/// must be drawn too, one group of them per frame (`stage` 0 to [`STAGES`] − 1: accuracy and the
/// findings; P and its Gram matrix; the learned table and its Gram matrix; the attention map), so
/// that no frame of the main thread draws more than two of them. On a 2-core machine with a worker
/// training on the other core, a group of four heatmaps plus the frame's layout and commit came
/// within a few milliseconds of a 50 ms long task. Returns the next stage, `None` when every
/// figure is drawn.
pub fn draw(
    ctx: &TrainCtx,
    dom: &TrainDom,
    run: Option<&TrainRun>,
    chosen: Option<TrainEncoding>,
    stage: Option<usize>,
) -> Result<Option<usize>, WebError> {
    let Some(run) = run else {
        if stage == Some(0) {
            canvas_message(
                &dom.loss,
                &[
                    &crate::training_message!("train-figure-not-trained-loss-first"),
                    &crate::training_message!("train-figure-not-trained-loss-second"),
                ],
            )?;
            let not_trained = [
                crate::training_message!("train-figure-not-trained-first"),
                crate::training_message!("train-figure-not-trained-second"),
            ];
            for canvas in [&dom.accuracy, &dom.attention] {
                canvas_message(canvas, &[&not_trained[0], &not_trained[1]])?;
            }
            dom::text(&dom.attention_readout, "");
            dom.results.set_inner_html("");
            dom.findings.set_inner_html("");
            write_verdict_detail(dom, &[])?;
            return Ok(Some(1));
        }
        return match stage {
            Some(1) => {
                draw_p_tables(ctx, dom, ctx.train.config.train_length, ctx.train.config.d)?;
                Ok(Some(2))
            }
            Some(2) => {
                draw_learned_tables(ctx, dom, None)?;
                Ok(None)
            }
            _ => Ok(None),
        };
    };
    draw_loss(ctx, &dom.loss, run)?;
    // The DOM is written after every canvas of the frame has read its size: a write first would
    // make the next read lay out the whole page again.
    let next = match stage {
        Some(0) => {
            draw_accuracy(ctx, &dom.accuracy, run)?;
            write_lines(&dom.findings, "li", run.conclusions().1)?;
            write_verdict_detail(dom, findings::verdict_after_takeaway(run))?;
            Some(1)
        }
        Some(1) => {
            draw_p_tables(ctx, dom, run.config.train_length, run.config.d)?;
            Some(2)
        }
        Some(2) => {
            let learned = run
                .first_seed_results()
                .find(|r| r.encoding == TrainEncoding::Learned);
            draw_learned_tables(ctx, dom, learned)?;
            Some(3)
        }
        Some(3) => {
            draw_attention(ctx, dom, run, chosen)?;
            None
        }
        _ => None,
    };
    fill_results(dom, run);
    Ok(next)
}

/// Replaces `list`'s children with one `tag` element per line (plain text).
/// The numbers behind the verdict, under its "more" (held out of sight while there are none).
fn write_verdict_detail(dom: &TrainDom, lines: &[String]) -> Result<(), WebError> {
    write_lines(&dom.verdict_detail, "p", lines)?;
    if lines.is_empty() {
        dom.verdict_more.set_attribute("data-empty", "")?;
    } else {
        dom.verdict_more.remove_attribute("data-empty")?;
    }
    Ok(())
}

fn write_lines(list: &web_sys::HtmlElement, tag: &str, lines: &[String]) -> Result<(), WebError> {
    list.set_inner_html("");
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        for line in lines {
            let item = document.create_element(tag)?;
            item.set_text_content(Some(line));
            list.append_child(&item)?;
        }
    }
    Ok(())
}

fn fill_results(dom: &TrainDom, run: &TrainRun) {
    let mut rows = String::new();
    for (k, &encoding) in run.encodings.iter().enumerate() {
        let runs = &run.runs[k];
        let reports: Option<Vec<&EncodingReport>> =
            runs.iter().map(|r| r.result.as_ref()).collect();
        let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
        let cells = match reports {
            Some(reports) => {
                // The mean, and the seeds' range on a line of its own below it, so that the
                // seven columns still fit a projector's width.
                let at = |m: usize| {
                    let spread = Spread::of(reports.iter().map(|r| r.accuracy_at_multiples[m]));
                    let (low, high) = (points_number(spread.min), points_number(spread.max));
                    if low == high || spread.count < 2 {
                        points(spread.mean)
                    } else {
                        format!(
                            "{}<small class=\"range\">{low}–{high}</small>",
                            points(spread.mean)
                        )
                    }
                };
                [
                    loss_text(Spread::of(reports.iter().map(|r| r.final_loss)).mean),
                    at(0),
                    at(1),
                    at(2),
                    reports[0].parameter_count.to_string(),
                    format!("{seconds:.1}"),
                ]
            }
            None => {
                let spread = run.loss_spread(encoding);
                let last = spread.last().map_or("–".into(), |s| loss_text(s.mean));
                [
                    last,
                    "…".into(),
                    "…".into(),
                    "…".into(),
                    "…".into(),
                    format!("{seconds:.1}"),
                ]
            }
        };
        // Every cell is a number or a fixed name: nothing here comes from the reader.
        rows.push_str(&format!(
            "<tr><th scope=\"row\">{}</th>",
            encoding.link_name()
        ));
        for cell in cells {
            rows.push_str(&format!("<td>{cell}</td>"));
        }
        rows.push_str("</tr>");
    }
    dom.results.set_inner_html(&rows);
}
