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
use super::family_charts::{draw_lines, draw_matrix, LineChart, Scale, Series};
use super::train::TrainDom;
use super::{canvas_message, Ctx};
use crate::model::present::plural;
use crate::model::train::findings::{loss_text, spread_text};
use crate::model::train::run::TrainRun;
use crate::model::train::{percent, TrainEncoding};

/// A loss curve keeps at most this many points on the chart (a long run is thinned evenly).
const MAX_CURVE_POINTS: usize = 600;

/// The palette's colours (Okabe–Ito): past them a series is told apart by a dashed line.
const PALETTE_COLOURS: usize = 8;

/// One colour per encoding of the run, the same in both charts: its place among the run's
/// encodings (a place fixed over all nine would give two of a run one colour, the palette having
/// eight); the ninth is dashed.
fn colour(run: &TrainRun, encoding: TrainEncoding) -> (usize, bool) {
    let k = run
        .encodings
        .iter()
        .position(|&e| e == encoding)
        .unwrap_or(0);
    (k, k >= PALETTE_COLOURS)
}

/// The line under the buttons: what the run is doing, or what it did.
pub fn progress_text(run: Option<&TrainRun>, settings_changed: bool) -> String {
    let Some(run) = run else {
        return "Not trained yet. Train runs every chosen encoding in Web Workers, off the page's \
                main thread; on the CPU the same settings give the same numbers on every \
                machine, bit for bit."
            .into();
    };
    let on = match run.device {
        Some(TrainDevice::Gpu) => "on the GPU",
        _ => "on the CPU",
    };
    let steps = run.steps_done();
    let total = run.config.steps;
    let rate = run.steps_per_second();
    let mut text = if let Some(failure) = &run.failure {
        format!("Stopped at step {steps} of {total}: {failure}.")
    } else if run.is_measuring() {
        format!("Starting: step 0 of {total}; the trainers are being timed.")
    } else if run.is_done() {
        format!(
            "Done: {} × {total} steps in {:.1} s ({:.0} steps per second, all encodings \
             together, in {} {on}).",
            plural(run.encodings.len(), "encoding", "encodings"),
            run.wall_seconds,
            rate,
            plural(run.workers, "worker", "workers")
        )
    } else if steps < total {
        format!(
            "Training: step {steps} of {total}, {:.0} steps per second (all encodings together, in \
             {} {on}).",
            rate,
            plural(run.workers, "worker", "workers")
        )
    } else {
        let (done, all) = run
            .evaluated
            .iter()
            .fold((0, 0), |(d, a), &(done, all)| (d + done, a + all));
        format!("Trained; measuring accuracy at every length ({done} of {all} lengths).")
    };
    if run.paused && run.is_running() {
        text.push_str(" Paused.");
    }
    if settings_changed {
        text.push_str(" The settings have changed since: press Train to run them.");
    }
    text
}

/// What the figures other than the loss chart are drawn from: while it is unchanged (a run
/// reporting its losses) only the loss chart and the table are drawn again, so that the main
/// thread's work per report stays small.
pub fn static_key(ctx: &Ctx, run: Option<&TrainRun>, chosen: Option<TrainEncoding>) -> String {
    format!(
        "{:?}|{}|{:?}|{}|{}|{}",
        run.map(|r| (r.id, r.finished().count())),
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
    ctx: &Ctx,
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
                    "Not trained yet: press Train.",
                    "The settings are below this chart.",
                ],
            )?;
            for canvas in [&dom.accuracy, &dom.attention] {
                canvas_message(
                    canvas,
                    &["Not trained yet.", "Press Train above the loss chart."],
                )?;
            }
            dom::text(&dom.attention_readout, "");
            dom.results.set_inner_html("");
            dom.findings.set_inner_html("");
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
    fill_results(dom, run);
    match stage {
        Some(0) => {
            draw_accuracy(ctx, &dom.accuracy, run)?;
            let findings = crate::model::train::findings::findings(run);
            dom.findings.set_inner_html("");
            if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                for finding in findings {
                    let item = document.create_element("li")?;
                    item.set_text_content(Some(&finding));
                    dom.findings.append_child(&item)?;
                }
            }
            Ok(Some(1))
        }
        Some(1) => {
            draw_p_tables(ctx, dom, run.config.train_length, run.config.d)?;
            Ok(Some(2))
        }
        Some(2) => {
            let learned = run
                .finished()
                .find(|r| r.encoding == TrainEncoding::Learned);
            draw_learned_tables(ctx, dom, learned)?;
            Ok(Some(3))
        }
        Some(3) => {
            draw_attention(ctx, dom, run, chosen)?;
            Ok(None)
        }
        _ => Ok(None),
    }
}

fn draw_loss(ctx: &Ctx, canvas: &HtmlCanvasElement, run: &TrainRun) -> Result<(), WebError> {
    if run.steps_done() == 0 {
        return canvas_message(canvas, &["Training is starting…"]);
    }
    let series = run
        .encodings
        .iter()
        .zip(&run.curves)
        .map(|(&encoding, curve)| {
            let every = curve.len().div_ceil(MAX_CURVE_POINTS).max(1);
            Series {
                label: encoding.link_name().into(),
                colour: colour(run, encoding).0,
                points: curve
                    .iter()
                    .enumerate()
                    .step_by(every)
                    .map(|(step, &loss)| ((step + 1) as f64, f64::from(loss)))
                    .collect(),
                dashed: colour(run, encoding).1,
                markers: false,
            }
        })
        .collect();
    draw_lines(
        canvas,
        &LineChart {
            style: ctx.style,
            x_desc: "Training step",
            y_desc: "Training loss (cross-entropy, log scale)",
            log_x: false,
            log_y: true,
            series,
            y_range: None,
            marks: Vec::new(),
        },
    )
}

fn draw_accuracy(ctx: &Ctx, canvas: &HtmlCanvasElement, run: &TrainRun) -> Result<(), WebError> {
    let finished: Vec<&EncodingReport> = run.finished().collect();
    let Some(first) = finished.first() else {
        return canvas_message(
            canvas,
            &["Accuracy against length is measured", "once training ends."],
        );
    };
    let c = &run.config;
    let mut series: Vec<Series> = finished
        .iter()
        .map(|r| Series {
            label: r.encoding.link_name().into(),
            colour: colour(run, r.encoding).0,
            points: r
                .lengths
                .iter()
                .zip(&r.accuracy_by_length)
                .map(|(&l, &a)| (l as f64, a))
                .collect(),
            dashed: colour(run, r.encoding).1,
            markers: false,
        })
        .collect();
    series.push(Series {
        label: "chance".into(),
        colour: run.encodings.len(),
        points: first
            .lengths
            .iter()
            .map(|&l| (l as f64, c.task.chance(l, c.vocab)))
            .collect(),
        dashed: true,
        markers: false,
    });
    let x_desc = format!(
        "Sequence length (dashed line: the training length, {})",
        c.train_length
    );
    draw_lines(
        canvas,
        &LineChart {
            style: ctx.style,
            x_desc: &x_desc,
            y_desc: "Token accuracy",
            log_x: false,
            log_y: false,
            series,
            y_range: Some((0.0, 1.0)),
            // Said in the axis title: a label at the top of the line would sit on the curves.
            marks: vec![(c.train_length as f64, String::new())],
        },
    )
}

/// The axis titles (x, y) of a table of positions by columns (P, the learned table) and of a
/// Gram matrix of positions, the same for P's and the learned table's.
const TABLE_AXES: (&str, &str) = ("Column", "Position");
const GRAM_AXES: (&str, &str) = ("Position j", "Position i");

/// The sinusoidal P of the learned table's size, and its normalised Gram matrix.
fn draw_p_tables(ctx: &Ctx, dom: &TrainDom, rows: usize, cols: usize) -> Result<(), WebError> {
    let p = sinusoidal_table(rows, cols);
    draw_matrix(
        &dom.sinusoid,
        ctx.scratch,
        &p.values,
        (rows, cols),
        Scale::Diverging(1.0),
        TABLE_AXES,
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
        GRAM_AXES,
        (None, None),
    )
}

/// The learned table beside P, and its normalised Gram matrix (a notice before a run with the
/// learned table has finished).
fn draw_learned_tables(
    ctx: &Ctx,
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
            draw_matrix(
                &dom.table,
                ctx.scratch,
                &table.values,
                (table.rows, table.cols),
                Scale::Diverging(limit),
                TABLE_AXES,
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
                GRAM_AXES,
                (None, None),
            )?;
            dom::text(
                &dom.spread,
                &format!(
                    "Translation spread (the RMS, over i < j, of G[i, j] minus the mean of its diagonal \
                     j − i; 0 when every entry depends on j − i only): untrained table {}, trained {}, \
                     sinusoidal P {}.",
                    r.translation_spread_initial.map_or("–".into(), spread_text),
                    r.translation_spread_trained.map_or("–".into(), spread_text),
                    spread_text(r.translation_spread_sinusoidal)
                ),
            );
        }
        None => {
            for canvas in [&dom.table, &dom.gram] {
                canvas_message(canvas, &["Train with learned ticked", "to see its table."])?;
            }
            dom::text(&dom.spread, "");
        }
    }
    Ok(())
}

fn draw_attention(
    ctx: &Ctx,
    dom: &TrainDom,
    run: &TrainRun,
    chosen: Option<TrainEncoding>,
) -> Result<(), WebError> {
    let finished: Vec<&EncodingReport> = run.finished().collect();
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
            &["The attention maps are drawn", "once training ends."],
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
        return canvas_message(&dom.attention, &["No attention map."]);
    };
    let names: Vec<String> = report.example.iter().map(|t| t.to_string()).collect();
    draw_matrix(
        &dom.attention,
        ctx.scratch,
        &map.weights,
        (map.length, map.length),
        Scale::Positive(1.0),
        ("Key (token)", "Query (token)"),
        (Some(&names), Some(&names)),
    )?;
    let hit = report.offset_hit_rate.map_or(String::new(), |h| {
        format!(
            " Its largest weight is on the token k = {} places back for {} of the queries that have one.",
            run.config.shift_k,
            percent(h.rate)
        )
    });
    dom::text(
        &dom.attention_readout,
        &format!(
            "{}, layer {}, head {} on one sequence of length {} (tokens as numbers).{hit}",
            report.encoding.link_name(),
            layer + 1,
            head + 1,
            map.length
        ),
    );
    Ok(())
}

fn fill_results(dom: &TrainDom, run: &TrainRun) {
    let mut rows = String::new();
    for (k, &encoding) in run.encodings.iter().enumerate() {
        let cells = match &run.results[k] {
            Some(r) => [
                loss_text(r.final_loss),
                percent(r.accuracy_at_multiples[0]),
                percent(r.accuracy_at_multiples[1]),
                percent(r.accuracy_at_multiples[2]),
                r.parameter_count.to_string(),
                format!("{:.1}", r.seconds),
            ],
            None => {
                let curve = &run.curves[k];
                let last = curve
                    .last()
                    .map_or("–".into(), |&l| loss_text(f64::from(l)));
                [
                    last,
                    "…".into(),
                    "…".into(),
                    "…".into(),
                    "…".into(),
                    format!("{:.1}", run.seconds[k]),
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
