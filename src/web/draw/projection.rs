//! The offset projection: the pairs (p[i,2j], p[i,2j+1]) lie on the unit circle, and the 2×2 matrix
//! of δ turns p_i into p_{i+δ}, the same turn for every i.

use crate::web::surface;
use ndarray::ArrayView1;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::chart::{colour, prepare, record, styled_mesh, Axis, ChartFrame};
use crate::math::encoding::frequency;
use crate::math::relative::{apply, rotation_for_pair, Mat2};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{arc_points, reduced_angle};
use crate::web::error::{draw_error, WebError};

/// The numbers the panel prints beside its drawing.
pub struct Projection {
    pub matrix: Mat2,
    pub omega: f64,
    /// δ·ω_j, the angle the matrix turns by.
    pub angle: f64,
    pub from: (f64, f64),
    pub projected: (f64, f64),
    pub target: (f64, f64),
}

/// The columns 2j (`sin`) and 2j+1 (`cos`) of an encoding of dimension `d`, down the rows; row r
/// is position `first_position + r` (1: the Julia edition, whose columns are counted from 1 too).
pub struct PairColumns<'a> {
    pub sin: ArrayView1<'a, f32>,
    pub cos: ArrayView1<'a, f32>,
    pub d: usize,
    pub first_position: usize,
}

/// Draws pair `pair` for offset `delta`, highlighting row `row` (which must have a partner δ rows
/// away), and returns the numbers shown.
pub fn draw_projection(
    canvas: &HtmlCanvasElement,
    columns: &PairColumns,
    base: f64,
    pair: usize,
    row: usize,
    delta: i64,
    style: &FigureStyle,
) -> Result<Projection, WebError> {
    let (n, d) = (columns.sin.len().min(columns.cos.len()), columns.d);
    if n == 0 {
        return Err(WebError::Draw("no positions to project".into()));
    }
    let first = columns.first_position;
    let (sin_col, cos_col) = (2 * pair, 2 * pair + 1);
    let axis = |column: usize, f: &str| {
        if first == 0 {
            format!("p[i, {column}] = {f}(i·ω_{pair})")
        } else {
            format!("column {} (1-based) = {f}(i·ω_{pair})", column + 1)
        }
    };
    let position = row.min(n - 1);
    let target_row = (position as i64 + delta).clamp(0, n as i64 - 1) as usize;
    let matrix = rotation_for_pair(pair, d, base, delta);
    let omega = frequency(pair, d, base);
    let point = |i: usize| (columns.sin[i] as f64, columns.cos[i] as f64);
    let from = point(position);
    let target = point(target_row);
    let projected = apply(&matrix, from.0, from.1);

    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let (x_title, y_title) = (axis(sin_col, "sin"), axis(cos_col, "cos"));
    let prepared = prepare(
        &root,
        &ChartFrame {
            style,
            x_title: &x_title,
            y_title: &y_title,
            y_ticks: &["-1.0".to_string()],
            legend: &[],
        },
    )?;
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(Axis::linear(-1.3f64..1.3f64), Axis::linear(-1.3f64..1.3f64))
        .map_err(draw_error)?;
    styled_mesh(&mut chart, &prepared, style, (7, 7))
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()
        .map_err(draw_error)?;
    let (ink, from_colour, target_colour) = (
        colour(style.ink),
        colour(style.series(0)),
        colour(style.series(4)),
    );
    let line = style.line_px.round() as u32;

    let circle = arc_points(0.0, std::f64::consts::TAU, 1.0, 180);
    chart
        .draw_series(LineSeries::new(
            circle,
            colour(style.frame).mix(0.6).stroke_width(1),
        ))
        .map_err(draw_error)?;
    let dot = if n > 400 { 2 } else { 3 };
    chart
        .draw_series(
            (0..n).map(|i| Circle::new(point(i), dot, colour(style.series(5)).mix(0.7).filled())),
        )
        .map_err(draw_error)?;

    // The turn from p_i to M·p_i, the short way round, just outside the circle.
    let start_angle = from.0.atan2(from.1);
    let sweep = reduced_angle(delta as f64 * omega);
    if sweep.abs() > 1e-9 {
        let arc = arc_points(start_angle, sweep, 1.13, 48);
        let end = *arc.last().unwrap_or(&(0.0, 0.0));
        let tangent_sign = sweep.signum();
        let end_angle = start_angle + sweep;
        let tangent = (
            end_angle.cos() * tangent_sign,
            -end_angle.sin() * tangent_sign,
        );
        let head = |turn: f64| {
            let (c, s) = (turn.cos(), turn.sin());
            let back = (-tangent.0, -tangent.1);
            let rotated = (back.0 * c - back.1 * s, back.0 * s + back.1 * c);
            vec![end, (end.0 + 0.09 * rotated.0, end.1 + 0.09 * rotated.1)]
        };
        chart
            .draw_series(LineSeries::new(arc, ink.stroke_width(line)))
            .map_err(draw_error)?;
        for turn in [0.45, -0.45] {
            chart
                .draw_series(LineSeries::new(head(turn), ink.stroke_width(line)))
                .map_err(draw_error)?;
        }
    }
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, 0.0), from],
            from_colour.stroke_width(line),
        ))
        .map_err(draw_error)?;
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, 0.0), target],
            target_colour.stroke_width(line),
        ))
        .map_err(draw_error)?;
    chart
        .draw_series([
            Circle::new(from, 7, from_colour.filled()),
            Circle::new(target, 7, target_colour.filled()),
            Circle::new(projected, 12, ink.stroke_width(line)),
        ])
        .map_err(draw_error)?;
    // Labels sit outside the circle, pushed apart along the circle (p_i behind the turn, p_(i+δ)
    // ahead of it) so that they do not overlap when δ·ω_j is small.
    let direction = if sweep < 0.0 { -1.0 } else { 1.0 };
    let label = |text: String, at: (f64, f64), along: f64, colour: RGBColor| {
        let angle = at.0.atan2(at.1);
        let tangent = (angle.cos(), -angle.sin());
        let place = (
            1.22 * angle.sin() + along * tangent.0,
            1.22 * angle.cos() + along * tangent.1,
        );
        let font = super::chart::font(style, style.label_px + 3.0)
            .color(&colour)
            .pos(Pos::new(HPos::Center, VPos::Center));
        Text::new(text, place, font)
    };
    let same_point = delta == 0;
    // Labels name positions, not rows.
    let (from_position, target_position) = (first + position, first + target_row);
    let from_label = if same_point {
        String::new()
    } else {
        format!("p_{from_position}")
    };
    chart
        .draw_series([
            label(from_label, from, -0.18 * direction, from_colour),
            label(
                format!("p_{target_position} = M·p_{from_position}"),
                target,
                if same_point { 0.0 } else { 0.3 * direction },
                target_colour,
            ),
        ])
        .map_err(draw_error)?;
    record(canvas, &prepared.geometry(&chart), style)?;
    root.present().map_err(draw_error)?;
    Ok(Projection {
        matrix,
        omega,
        angle: delta as f64 * omega,
        from,
        projected,
        target,
    })
}
