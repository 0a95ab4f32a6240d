//! The training panel's line charts: the loss of every encoding against the step (log scale,
//! drawn live while a run trains), and accuracy against sequence length with the blind ceiling,
//! chance and the training length drawn beside the encodings' lines.

use web_sys::HtmlCanvasElement;

use super::super::canvas_message;
use super::super::family_charts::{draw_lines, LineChart, Series, INK, MUTED};
use super::super::train::TrainCtx;
use crate::model::train::findings;
use crate::model::train::run::{Spread, TrainRun};
use crate::model::train::TrainEncoding;
use crate::web::error::WebError;
use pe_lab_train::protocol::EncodingReport;

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

pub(super) fn draw_loss(
    ctx: &TrainCtx,
    canvas: &HtmlCanvasElement,
    run: &TrainRun,
) -> Result<(), WebError> {
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

pub(super) fn draw_accuracy(
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
        .map(|(encoding, reports)| accuracy_series(run, *encoding, reports, &lengths))
        .collect();
    series.extend(reference_lines(run, &lengths));
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

/// An encoding's accuracy (per cent) at each of `lengths`: the seeds' mean, and their range as a
/// band when there are several.
fn accuracy_series(
    run: &TrainRun,
    encoding: TrainEncoding,
    reports: &[&EncodingReport],
    lengths: &[usize],
) -> Series {
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
        encoding,
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
}

/// The lines the encodings' accuracy is read against: the blind ceiling (where the run has it
/// at every length), chance, and the training length.
fn reference_lines(run: &TrainRun, lengths: &[usize]) -> Vec<Series> {
    let c = &run.config;
    let mut series = Vec::new();
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
    series
}
