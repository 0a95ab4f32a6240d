//! The offset projection: the pairs (p[i,2j], p[i,2j+1]) lie on the unit circle, and the 2×2 matrix
//! of δ turns p_i into p_{i+δ}, the same turn for every i.

#[path = "projection_labels.rs"]
mod labels;

use crate::web::surface::{self, Plotting};
use labels::{draw_scene_labels, Scene};
use ndarray::ArrayView1;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::chart::{colour, prepare, record, styled_mesh, Axis, ChartFrame, Prepared};
use crate::math::encoding::frequency;
use crate::math::relative::{apply, rotation_for_pair, Mat2};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{arc_points, reduced_angle, PixelRect};
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
    /// How many positions i have a partner i + δ (each drawn with its arrow).
    pub partners: usize,
    /// Each label's text and box, in the canvas's logical pixels.
    pub labels: Vec<(String, PixelRect)>,
    /// What the labels keep off: every point, the highlighted ones, the ring and the arc's
    /// samples, as (x, y, radius) in logical pixels.
    pub points: Vec<[f64; 3]>,
    /// The lines they keep off too: every arrow's shaft and head strokes and the two radii, as
    /// (x0, y0, x1, y1, half width) in logical pixels.
    pub lines: Vec<[f64; 5]>,
    /// The plot, inside the axes, in logical pixels.
    pub plot: PixelRect,
    /// The canvas's logical size.
    pub canvas: (u32, u32),
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
    let (n, d) = (columns.len(), columns.d);
    let first = columns.first_position;
    let (position, target_row) = chosen_rows(n, row, delta)?;
    let matrix = rotation_for_pair(pair, d, base, delta);
    let omega = frequency(pair, d, base);
    let from = columns.point(position);
    let turn = ChosenTurn {
        from,
        target: columns.point(target_row),
        projected: apply(&matrix, from.0, from.1),
        sweep: reduced_angle(delta as f64 * omega),
    };
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    let (x_title, y_title) = (
        axis_title(first, pair, 2 * pair, "sin"),
        axis_title(first, pair, 2 * pair + 1, "cos"),
    );
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
    let mut chart = unit_plane(&prepared, style)?;
    let marks = Marks::of(style, n);
    let (partners, arrow_strokes) = draw_every_turn(&mut chart, columns, delta, &marks)?;
    let arc = draw_chosen_turn(&mut chart, &turn, &marks)?;
    let geometry = prepared.geometry(&chart);
    let scene = Scene {
        columns,
        turn: &turn,
        marks: &marks,
        arrows: &arrow_strokes,
        arc: &arc,
        // Labels name positions, not rows.
        positions: (first + position, first + target_row),
        delta,
    };
    let placed = draw_scene_labels(&root, &chart, &scene, &geometry.plot, style)?;
    let canvas_size = root.dim_in_pixel();
    record(canvas, &geometry, style)?;
    root.present().map_err(draw_error)?;
    Ok(Projection {
        matrix,
        omega,
        angle: delta as f64 * omega,
        from,
        projected: turn.projected,
        target: turn.target,
        partners,
        labels: placed.labels,
        points: placed.points,
        lines: placed.lines,
        plot: geometry.plot,
        canvas: canvas_size,
    })
}

/// The chosen row (`row`, or the last) and its partner δ rows away (clamped to P's rows).
fn chosen_rows(n: usize, row: usize, delta: i64) -> Result<(usize, usize), WebError> {
    if n == 0 {
        return Err(WebError::Draw("no positions to project".into()));
    }
    let position = row.min(n - 1);
    Ok((
        position,
        (position as i64 + delta).clamp(0, n as i64 - 1) as usize,
    ))
}

/// The numbers [`draw_projection`] returns, without drawing (the panel is off screen): the same
/// matrix, angle and points; no labels, obstacles or plot, which only a drawing has.
pub fn projection_numbers(
    columns: &PairColumns,
    base: f64,
    pair: usize,
    row: usize,
    delta: i64,
) -> Result<Projection, WebError> {
    let n = columns.len();
    let (position, target_row) = chosen_rows(n, row, delta)?;
    let matrix = rotation_for_pair(pair, columns.d, base, delta);
    let omega = frequency(pair, columns.d, base);
    let from = columns.point(position);
    let partners = if delta == 0 {
        0
    } else {
        n.saturating_sub(delta.unsigned_abs() as usize)
    };
    Ok(Projection {
        matrix,
        omega,
        angle: delta as f64 * omega,
        from,
        projected: apply(&matrix, from.0, from.1),
        target: columns.point(target_row),
        partners,
        labels: Vec::new(),
        points: Vec::new(),
        lines: Vec::new(),
        plot: PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: 0.0,
            y1: 0.0,
        },
        canvas: (0, 0),
    })
}

/// An axis names its column of P and what it holds (counted from 1 in the Julia edition).
fn axis_title(first_position: usize, pair: usize, column: usize, f: &str) -> String {
    if first_position == 0 {
        format!("p[i, {column}] = {f}(i·ω_{pair})")
    } else {
        crate::message!(
            "figure-projection-axis-from-one",
            column = column + 1,
            f = f,
            pair = pair,
        )
    }
}

impl PairColumns<'_> {
    /// The positions drawn: the rows both columns have.
    fn len(&self) -> usize {
        self.sin.len().min(self.cos.len())
    }

    /// Row `i`'s point (p[i, 2j], p[i, 2j+1]).
    fn point(&self, i: usize) -> (f64, f64) {
        (self.sin[i] as f64, self.cos[i] as f64)
    }
}

/// The chosen position's turn: from p_i by M to M·p_i, which should be p_(i+δ).
struct ChosenTurn {
    from: (f64, f64),
    target: (f64, f64),
    projected: (f64, f64),
    /// δ·ω_j reduced to −π…π: the short way round.
    sweep: f64,
}

/// The figure's colours and sizes.
struct Marks {
    ink: RGBColor,
    frame: RGBColor,
    dots: RGBColor,
    from: RGBColor,
    target: RGBColor,
    /// A point of P, in pixels (smaller among many).
    dot: u32,
    /// The highlighted points and the ring around M·p_i, in pixels.
    big: f64,
    ring: f64,
    line: u32,
}

impl Marks {
    fn of(style: &FigureStyle, n: usize) -> Marks {
        Marks {
            ink: colour(style.ink),
            frame: colour(style.frame),
            dots: colour(style.series(5)),
            from: colour(style.series(0)),
            target: colour(style.series(4)),
            dot: if n > 400 { 2 } else { 3 },
            big: 7.0,
            ring: 12.0,
            line: style.line_px.round() as u32,
        }
    }
}

/// The chart the projection is drawn on.
type Plane<'a> = ChartContext<'a, Plotting<'static>, Cartesian2d<Axis, Axis>>;

/// The plane around the unit circle, −1.3…1.3 on both axes, with its grid.
fn unit_plane<'a>(
    prepared: &'a Prepared<Plotting<'static>>,
    style: &FigureStyle,
) -> Result<Plane<'a>, WebError> {
    let mut chart = prepared
        .builder()
        .build_cartesian_2d(Axis::linear(-1.3f64..1.3f64), Axis::linear(-1.3f64..1.3f64))
        .map_err(draw_error)?;
    styled_mesh(&mut chart, prepared, style, (7, 7))
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()
        .map_err(draw_error)?;
    Ok(chart)
}

/// The arrows' strokes, in plot coordinates, and their width in pixels.
struct ArrowStrokes {
    strokes: Vec<[(f64, f64); 2]>,
    width: u32,
}

/// The unit circle, every position's turn at once, and every point of P; returns how many
/// positions have a partner, and the arrows' strokes.
fn draw_every_turn(
    chart: &mut Plane,
    columns: &PairColumns,
    delta: i64,
    marks: &Marks,
) -> Result<(usize, ArrowStrokes), WebError> {
    let n = columns.len();
    let circle = arc_points(0.0, std::f64::consts::TAU, 1.0, 180);
    chart
        .draw_series(LineSeries::new(
            circle,
            marks.frame.mix(0.6).stroke_width(1),
        ))
        .map_err(draw_error)?;
    // An arrow from p_i to p_(i+δ) for each i that has a partner. They are all the same turn
    // (the same length, the same angle to the radius), which is the panel's point; the chosen i
    // is drawn bold on top.
    let partners: Vec<(usize, usize)> = (0..n)
        .filter_map(|i| {
            let j = i as i64 + delta;
            (delta != 0 && (0..n as i64).contains(&j)).then_some((i, j as usize))
        })
        .collect();
    // Fainter where there are many, so that a few thousand arrows stay a band one can see
    // through rather than a solid ring.
    let count = partners.len().max(1) as f64;
    let width = if partners.len() > 200 { 1 } else { 2 };
    let arrow_colour = marks
        .target
        .mix((0.6 * (120.0 / count).min(1.0)).max(0.15))
        .stroke_width(width);
    let strokes: Vec<[(f64, f64); 2]> = partners
        .iter()
        .flat_map(|&(i, j)| arrow(columns.point(i), columns.point(j)))
        .collect();
    chart
        .draw_series(
            strokes
                .iter()
                .map(|&[a, b]| PathElement::new(vec![a, b], arrow_colour)),
        )
        .map_err(draw_error)?;
    chart
        .draw_series(
            (0..n).map(|i| Circle::new(columns.point(i), marks.dot, marks.dots.mix(0.8).filled())),
        )
        .map_err(draw_error)?;
    Ok((partners.len(), ArrowStrokes { strokes, width }))
}

/// An arrow from `a` to `b`: its shaft and, when it is long enough to carry one, its head's two
/// strokes.
fn arrow(a: (f64, f64), b: (f64, f64)) -> Vec<[(f64, f64); 2]> {
    let mut paths = vec![[a, b]];
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx.hypot(dy);
    // No head on an arrow too short to carry one (a slow pair's turn of a few pixels).
    if length > 0.03 {
        let head = (0.07f64).min(0.45 * length);
        let back = (-dx / length, -dy / length);
        for turn in [0.45f64, -0.45] {
            let (c, s) = (turn.cos(), turn.sin());
            let r = (back.0 * c - back.1 * s, back.0 * s + back.1 * c);
            paths.push([b, (b.0 + head * r.0, b.1 + head * r.1)]);
        }
    }
    paths
}

/// The chosen position's turn from p_i to M·p_i, the short way round, just outside the circle;
/// its two radii and points, and the ring around M·p_i. Returns the arc's samples (none for no
/// turn), which the labels keep off.
fn draw_chosen_turn(
    chart: &mut Plane,
    turn: &ChosenTurn,
    marks: &Marks,
) -> Result<Vec<(f64, f64)>, WebError> {
    let (ink, line) = (marks.ink, marks.line);
    let start_angle = turn.from.0.atan2(turn.from.1);
    let sweep = turn.sweep;
    let mut arc_samples = Vec::new();
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
        arc_samples = arc.clone();
        chart
            .draw_series(LineSeries::new(arc, ink.stroke_width(line)))
            .map_err(draw_error)?;
        for turn in [0.45, -0.45] {
            let tip = head(turn);
            arc_samples.extend(tip.iter().copied());
            chart
                .draw_series(LineSeries::new(tip, ink.stroke_width(line)))
                .map_err(draw_error)?;
        }
    }
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, 0.0), turn.from],
            marks.from.stroke_width(line),
        ))
        .map_err(draw_error)?;
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, 0.0), turn.target],
            marks.target.stroke_width(line),
        ))
        .map_err(draw_error)?;
    chart
        .draw_series([
            Circle::new(turn.from, marks.big as u32, marks.from.filled()),
            Circle::new(turn.target, marks.big as u32, marks.target.filled()),
            Circle::new(turn.projected, marks.ring as u32, ink.stroke_width(line)),
        ])
        .map_err(draw_error)?;
    Ok(arc_samples)
}
