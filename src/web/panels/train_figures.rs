//! The training panel's figures and read-outs, drawn from a [`TrainRun`]: the loss of every
//! encoding (log scale, live), accuracy against sequence length with the training length marked,
//! the learned table beside the sinusoidal P of its size and both normalised Gram matrices, a
//! trained model's attention map, the table of results and the findings.

use pe_lab_train::analysis::{normalised_gram, sinusoidal_table};
use pe_lab_train::protocol::{EncodingReport, TrainDevice};
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlOptionElement};

use super::super::dom;
use super::super::error::WebError;
use super::super::surface;
use super::canvas_message;
use super::family_charts::{draw_lines, draw_matrix, LineChart, Scale, Series, INK, MUTED};
use super::train::TrainCtx;
use super::train::TrainDom;
use crate::model::train::findings::{
    self, loss_text, offset_weights, points, points_number, spread_text,
};
use crate::model::train::run::{Spread, TrainRun};
use crate::model::train::TrainEncoding;

/// A loss curve keeps at most this many points on the chart (a long run is thinned evenly).
const MAX_CURVE_POINTS: usize = 600;

/// How an encoding's lines look in both charts: a colour of the palette (Okabe–Ito, eight
/// colours) by its place among the run's encodings (a place fixed over all nine would give two of
/// a run one colour), and a marker shape and a dash pattern as well, so that two lines are told
/// apart without colour (and a ninth encoding from the first, which shares its colour).
fn line_style(run: &TrainRun, encoding: TrainEncoding) -> (usize, Option<(u32, u32)>, usize) {
    let k = run
        .encodings
        .iter()
        .position(|&e| e == encoding)
        .unwrap_or(0);
    let pattern = match k / 3 {
        0 => None,
        1 => Some((10, 4)),
        _ => Some((3, 3)),
    };
    // Four marker shapes: the ninth encoding shares the first's colour but neither its shape
    // nor its dash.
    (k % 8, pattern, (k + k / 8) % 4)
}

/// An encoding's line: its style, `points`, and the seeds' range as a band.
fn encoding_series(
    run: &TrainRun,
    encoding: TrainEncoding,
    points: Vec<(f64, f64)>,
    band: Vec<(f64, f64, f64)>,
) -> Series {
    let (colour, pattern, shape) = line_style(run, encoding);
    let every = (points.len() / 6).max(1);
    Series {
        label: encoding.link_name().into(),
        colour,
        points,
        pattern,
        band,
        sparse_marker: Some((every, shape)),
        ..Default::default()
    }
}

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

fn draw_loss(ctx: &TrainCtx, canvas: &HtmlCanvasElement, run: &TrainRun) -> Result<(), WebError> {
    if run.total_steps_done() == 0 {
        return canvas_message(
            canvas,
            &[&crate::training_message!("train-figure-loss-starting")],
        );
    }
    let series = run
        .encodings
        .iter()
        .map(|&encoding| {
            let spread = run.loss_spread(encoding);
            let every = spread.len().div_ceil(MAX_CURVE_POINTS).max(1);
            let kept: Vec<(usize, &Spread)> = spread.iter().enumerate().step_by(every).collect();
            let x = |step: usize| (step + 1) as f64;
            // The band at a quarter of the line's points: its fill is rasterised on the main
            // thread at every redraw of a run.
            let band = if run.seeds.len() > 1 {
                kept.iter()
                    .step_by(4)
                    .filter(|(_, s)| s.count > 1)
                    .map(|&(step, s)| (x(step), s.min, s.max))
                    .collect()
            } else {
                Vec::new()
            };
            // Solid lines told apart by colour and marker: a dashed line of hundreds of noisy
            // steps is thousands of separate strokes, redrawn four times a second while a run
            // trains (the accuracy chart, drawn once, has the dashes too).
            Series {
                pattern: None,
                ..encoding_series(
                    run,
                    encoding,
                    kept.iter().map(|&(step, s)| (x(step), s.mean)).collect(),
                    band,
                )
            }
        })
        .collect();
    let x_desc = if run.seeds.len() > 1 {
        crate::training_message!("train-axis-step-seeds")
    } else {
        crate::training_message!("train-axis-step")
    };
    draw_lines(
        canvas,
        &LineChart {
            style: ctx.style,
            x_desc: &x_desc,
            y_desc: &crate::training_message!("train-axis-loss"),
            log_x: false,
            log_y: true,
            series,
            y_range: None,
            marks: Vec::new(),
        },
    )
}

fn draw_accuracy(
    ctx: &TrainCtx,
    canvas: &HtmlCanvasElement,
    run: &TrainRun,
) -> Result<(), WebError> {
    let complete = run.complete();
    if complete.is_empty() {
        return canvas_message(
            canvas,
            &[
                &crate::training_message!("train-figure-accuracy-later-first"),
                &crate::training_message!("train-figure-accuracy-later-second"),
            ],
        );
    }
    let c = &run.config;
    let lengths = run.lengths();
    let mut series: Vec<Series> = complete
        .iter()
        .map(|(encoding, reports)| {
            let spreads: Vec<Spread> = (0..lengths.len())
                .map(|i| {
                    Spread::of(
                        reports
                            .iter()
                            .filter_map(|r| r.accuracy_by_length.get(i).copied()),
                    )
                })
                .collect();
            let x = |i: usize| lengths[i] as f64;
            encoding_series(
                run,
                *encoding,
                spreads
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (x(i), 100.0 * s.mean))
                    .collect(),
                if run.seeds.len() > 1 {
                    spreads
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (x(i), 100.0 * s.min, 100.0 * s.max))
                        .collect()
                } else {
                    Vec::new()
                },
            )
        })
        .collect();
    let ceiling = run.blind_ceiling();
    if ceiling.len() == lengths.len() {
        series.push(Series {
            label: crate::training_message!("train-legend-ceiling"),
            colour: INK,
            points: lengths
                .iter()
                .zip(&ceiling)
                .map(|(&l, &v)| (l as f64, 100.0 * v))
                .collect(),
            pattern: Some((14, 4)),
            ..Default::default()
        });
    }
    series.push(Series {
        label: crate::training_message!(
            "train-legend-chance",
            chance_name = findings::chance_name(c.task)
        ),
        colour: MUTED,
        points: lengths
            .iter()
            .map(|&l| (l as f64, 100.0 * c.task.chance(l, c.vocab)))
            .collect(),
        pattern: Some((2, 4)),
        ..Default::default()
    });
    // The training length as a line of its own, named in the legend: a name written beside the
    // line would sit on the curves, which all pass it.
    let at = c.train_length as f64;
    series.push(Series {
        label: crate::training_message!("train-legend-training-length", length = c.train_length),
        colour: MUTED,
        points: vec![(at, 0.0), (at, 100.0)],
        pattern: Some((6, 4)),
        ..Default::default()
    });
    let x_desc = if run.seeds.len() > 1 {
        crate::training_message!("train-axis-length-seeds", length = c.train_length)
    } else {
        crate::training_message!("train-axis-length", length = c.train_length)
    };
    let y_desc = &crate::training_message!("train-axis-accuracy");
    draw_lines(
        canvas,
        &LineChart {
            style: ctx.style,
            x_desc: &x_desc,
            y_desc,
            log_x: false,
            log_y: false,
            series,
            y_range: Some((0.0, 100.0)),
            marks: Vec::new(),
        },
    )
}

/// The axis titles (x, y) of a table of positions by columns (P, the learned table).
fn table_axes() -> (String, String) {
    (
        crate::training_message!("train-axis-column"),
        crate::training_message!("train-axis-position"),
    )
}

/// The axis titles (x, y) of a Gram matrix of positions, the same for P's and the learned
/// table's.
fn gram_axes() -> (String, String) {
    (
        crate::training_message!("train-axis-position-j"),
        crate::training_message!("train-axis-position-i"),
    )
}

/// The sinusoidal P of the learned table's size, and its normalised Gram matrix.
fn draw_p_tables(ctx: &TrainCtx, dom: &TrainDom, rows: usize, cols: usize) -> Result<(), WebError> {
    // P depends on its size and the page's style only, not on the run: a new run, or a seed's
    // result, does not draw its two heatmaps again (a frame's largest cost when a run starts).
    let key = format!(
        "{rows}x{cols}|{}|{}",
        ctx.style.background.css(),
        ctx.style.label_px
    );
    let drawn = [&dom.sinusoid, &dom.gram_p].iter().all(|canvas| {
        canvas.get_attribute("data-p-key").as_deref() == Some(key.as_str())
            && canvas.has_attribute("data-logical-width")
            && !surface::out_of_date(canvas)
    });
    if drawn {
        return Ok(());
    }
    for canvas in [&dom.sinusoid, &dom.gram_p] {
        canvas.set_attribute("data-p-key", &key)?;
    }
    let p = sinusoidal_table(rows, cols);
    let (table_x, table_y) = table_axes();
    let (gram_x, gram_y) = gram_axes();
    draw_matrix(
        &dom.sinusoid,
        ctx.scratch,
        &p.values,
        (rows, cols),
        Scale::Diverging(1.0),
        (&table_x, &table_y),
        (None, None),
    )?;
    let gram_p: Vec<f32> = normalised_gram(&p.values, rows, cols)
        .unwrap_or_default()
        .into_iter()
        .map(|v| v as f32)
        .collect();
    draw_matrix(
        &dom.gram_p,
        ctx.scratch,
        &gram_p,
        (rows, rows),
        Scale::Diverging(1.0),
        (&gram_x, &gram_y),
        (None, None),
    )
}

/// The learned table beside P, and its normalised Gram matrix (a notice before a run with the
/// learned table has finished).
fn draw_learned_tables(
    ctx: &TrainCtx,
    dom: &TrainDom,
    learned: Option<&EncodingReport>,
) -> Result<(), WebError> {
    match learned.and_then(|r| Some((r, r.table.as_ref()?))) {
        Some((r, table)) => {
            let limit = table
                .values
                .iter()
                .fold(0f32, |m, v| m.max(v.abs()))
                .max(1e-6);
            let (table_x, table_y) = table_axes();
            let (gram_x, gram_y) = gram_axes();
            draw_matrix(
                &dom.table,
                ctx.scratch,
                &table.values,
                (table.rows, table.cols),
                Scale::Diverging(limit),
                (&table_x, &table_y),
                (None, None),
            )?;
            let gram: Vec<f32> = normalised_gram(&table.values, table.rows, table.cols)
                .unwrap_or_default()
                .into_iter()
                .map(|v| v as f32)
                .collect();
            draw_matrix(
                &dom.gram,
                ctx.scratch,
                &gram,
                (table.rows, table.rows),
                Scale::Diverging(1.0),
                (&gram_x, &gram_y),
                (None, None),
            )?;
            dom::text(
                &dom.spread,
                &crate::training_message!(
                    "train-figure-spread",
                    untrained = r.translation_spread_initial.map_or("–".into(), spread_text),
                    trained = r.translation_spread_trained.map_or("–".into(), spread_text),
                    sinusoidal = spread_text(r.translation_spread_sinusoidal)
                ),
            );
        }
        None => {
            let lines = [
                crate::training_message!("train-figure-learned-missing-first"),
                crate::training_message!("train-figure-learned-missing-second"),
            ];
            for canvas in [&dom.table, &dom.gram] {
                canvas_message(canvas, &[&lines[0], &lines[1]])?;
            }
            dom::text(&dom.spread, "");
        }
    }
    Ok(())
}

fn draw_attention(
    ctx: &TrainCtx,
    dom: &TrainDom,
    run: &TrainRun,
    chosen: Option<TrainEncoding>,
) -> Result<(), WebError> {
    // The maps of the first seed (every seed's are measured; one is drawn).
    let finished: Vec<&EncodingReport> = run.first_seed_results().collect();
    // The menu lists the finished encodings.
    let names: Vec<&str> = finished.iter().map(|r| r.encoding.link_name()).collect();
    let current: Vec<String> = (0..dom.attention_choice.length())
        .filter_map(|k| dom.attention_choice.item(k))
        .filter_map(|o| o.dyn_into::<HtmlOptionElement>().ok())
        .map(|o| o.value())
        .collect();
    if current != names {
        dom.attention_choice.set_inner_html("");
        for name in &names {
            let option = HtmlOptionElement::new_with_text_and_value(name, name)?;
            dom.attention_choice.add_with_html_option_element(&option)?;
        }
    }
    let best = finished
        .iter()
        .max_by(|a, b| {
            let rate = |r: &&&EncodingReport| r.offset_hit_rate.map_or(-1.0, |h| h.rate);
            rate(a).total_cmp(&rate(b))
        })
        .copied();
    let shown = chosen
        .and_then(|e| finished.iter().find(|r| r.encoding == e).copied())
        .or(best);
    let Some(report) = shown else {
        dom::text(&dom.attention_readout, "");
        return canvas_message(
            &dom.attention,
            &[
                &crate::training_message!("train-figure-attention-later-first"),
                &crate::training_message!("train-figure-attention-later-second"),
            ],
        );
    };
    dom.attention_choice.set_value(report.encoding.link_name());
    let (layer, head) = report
        .offset_hit_rate
        .map_or((run.config.layers - 1, 0), |h| (h.layer, h.head));
    let Some(map) = report
        .attention
        .iter()
        .find(|m| m.layer == layer && m.head == head)
    else {
        return canvas_message(
            &dom.attention,
            &[&crate::training_message!("train-figure-no-attention-map")],
        );
    };
    let positions: Vec<String> = (0..map.length).map(|i| i.to_string()).collect();
    draw_matrix(
        &dom.attention,
        ctx.scratch,
        &map.weights,
        (map.length, map.length),
        Scale::Weights,
        (
            &crate::training_message!("train-axis-key-position"),
            &crate::training_message!("train-axis-query-position"),
        ),
        (Some(&positions), Some(&positions)),
    )?;
    let k = run.config.shift_k;
    let hit = match (report.offset_hit_rate, offset_weights(map, k)) {
        (Some(h), Some(w)) if w.back_is_largest => crate::training_message!(
            "train-attention-hit",
            k = k,
            share = points(h.rate),
            weight = format!("{:.2}", w.back)
        ),
        (Some(_), Some(w)) => crate::training_message!(
            "train-attention-noise",
            k = k,
            weight = format!("{:.3}", w.back),
            uniform = format!("{:.3}", w.uniform)
        ),
        _ => String::new(),
    };
    let tokens = report
        .example
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    dom::text(
        &dom.attention_readout,
        &crate::training_message!(
            "train-attention-readout",
            encoding = report.encoding.link_name(),
            layer = layer + 1,
            head = head + 1,
            seed = report.seed.to_string(),
            length = map.length,
            tokens = tokens,
            hit = hit
        ),
    );
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
