//! The offset projection: the pairs (p[i,2j], p[i,2j+1]) lie on the unit circle, and the 2×2 matrix
//! of δ turns p_i into p_{i+δ}, the same turn for every i.

use crate::web::surface::{self, Plotting};
use ndarray::ArrayView1;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::chart::{colour, prepare, record, styled_mesh, Axis, ChartFrame, Prepared};
use crate::math::encoding::frequency;
use crate::math::relative::{apply, rotation_for_pair, Mat2};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{arc_points, reduced_angle, PixelRect};
use crate::model::projection_figure::{
    all_clear, place_labels, Disc, LabelRequest, Obstacles, Segment,
};
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

    // The labels, placed in pixels (model::projection_figure) so that none covers another, a
    // point, an arrow, a radius, the ring or the turn's arc, and none leaves the plot.
    let px = |at: (f64, f64)| {
        let (x, y) = chart.backend_coord(&at);
        (f64::from(x), f64::from(y))
    };
    let discs = obstacles(columns, &turn, &arc, &marks, &px);
    let segments = line_obstacles(&arrow_strokes, &turn, &marks, &px);
    // Labels name positions, not rows.
    let texts = label_texts(
        (first + position, first + target_row),
        delta,
        &turn,
        &marks,
        &px,
    );
    let geometry = prepared.geometry(&chart);
    let labels = draw_labels(
        &root,
        style,
        &texts,
        &Obstacles {
            discs: &discs,
            segments: &segments,
        },
        px((0.0, 0.0)),
        &geometry.plot,
        marks.big,
    )?;
    let points = discs
        .iter()
        .map(|d| [d.centre.0, d.centre.1, d.radius])
        .collect();
    let lines = segments
        .iter()
        .map(|s| [s.from.0, s.from.1, s.to.0, s.to.1, s.half_width])
        .collect();
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
        labels,
        points,
        lines,
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

/// The labels (text, anchor in pixels, colour): p_(i+δ) = M·p_i, and p_i unless δ = 0 makes them
/// one point.
fn label_texts(
    (from_position, target_position): (usize, usize),
    delta: i64,
    turn: &ChosenTurn,
    marks: &Marks,
    px: &dyn Fn((f64, f64)) -> (f64, f64),
) -> Vec<(String, (f64, f64), RGBColor)> {
    let mut texts = vec![(
        format!("p_{target_position} = M·p_{from_position}"),
        px(turn.target),
        marks.target,
    )];
    if delta != 0 {
        texts.push((format!("p_{from_position}"), px(turn.from), marks.from));
    }
    texts
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

/// What the labels keep off, in pixels: every point, the highlighted ones, the ring and the
/// arc's samples.
fn obstacles(
    columns: &PairColumns,
    turn: &ChosenTurn,
    arc: &[(f64, f64)],
    marks: &Marks,
    px: &dyn Fn((f64, f64)) -> (f64, f64),
) -> Vec<Disc> {
    let half_line = f64::from(marks.line) / 2.0;
    let mut discs: Vec<Disc> = (0..columns.len())
        .map(|i| Disc {
            centre: px(columns.point(i)),
            radius: f64::from(marks.dot),
        })
        .collect();
    discs.extend([
        Disc {
            centre: px(turn.from),
            radius: marks.big,
        },
        Disc {
            centre: px(turn.target),
            radius: marks.big,
        },
        Disc {
            centre: px(turn.projected),
            radius: marks.ring + half_line,
        },
    ]);
    discs.extend(arc.iter().map(|&at| Disc {
        centre: px(at),
        radius: half_line + 1.0,
    }));
    discs
}

/// The lines the labels keep off, in pixels: every arrow's strokes and the chosen turn's two radii.
fn line_obstacles(
    arrows: &ArrowStrokes,
    turn: &ChosenTurn,
    marks: &Marks,
    px: &dyn Fn((f64, f64)) -> (f64, f64),
) -> Vec<Segment> {
    let arrow_half = f64::from(arrows.width) / 2.0;
    let radius_half = f64::from(marks.line) / 2.0;
    let mut segments: Vec<Segment> = arrows
        .strokes
        .iter()
        .map(|&[a, b]| Segment {
            from: px(a),
            to: px(b),
            half_width: arrow_half,
        })
        .collect();
    segments.extend([turn.from, turn.target].map(|end| Segment {
        from: px((0.0, 0.0)),
        to: px(end),
        half_width: radius_half,
    }));
    segments
}

/// Places the labels (text, anchor in pixels, colour) clear of `avoid` inside `plot`, a size
/// smaller each time they do not all fit, and draws them on plates, with a leader to a point a
/// label was pushed away from (beyond the highlighted points' radius `big`). Returns each
/// label's text and box.
fn draw_labels(
    root: &DrawingArea<Plotting<'static>, Shift>,
    style: &FigureStyle,
    texts: &[(String, (f64, f64), RGBColor)],
    avoid: &Obstacles,
    centre: (f64, f64),
    plot: &PixelRect,
    big: f64,
) -> Result<Vec<(String, PixelRect)>, WebError> {
    let requests_at = |label_px: f64| -> Vec<LabelRequest> {
        texts
            .iter()
            .map(|(text, anchor, _)| {
                let font = super::chart::font(style, label_px);
                let (w, h) = root
                    .estimate_text_size(text, &font.into())
                    .map(|(w, h)| (f64::from(w), f64::from(h)))
                    .unwrap_or((text.chars().count() as f64 * label_px * 0.6, label_px));
                LabelRequest {
                    anchor: *anchor,
                    // A little room around the text, for its plate.
                    size: (w + 6.0, h.max(label_px * 1.15) + 2.0),
                    outward: (anchor.0 - centre.0, anchor.1 - centre.1),
                }
            })
            .collect()
    };
    // The labels' type, a size smaller each time they do not all fit (a projector's large type on
    // a small plot, "p_2001 = M·p_2000" among 2048 points), down to the tick labels' size.
    let sizes = [
        style.label_px + 3.0,
        style.label_px,
        style.tick_px,
        0.85 * style.tick_px,
    ];
    let mut placed = None;
    for &size in &sizes {
        let requests = requests_at(size);
        let boxes = place_labels(&requests, avoid, plot);
        let clear = all_clear(&boxes, avoid, plot);
        placed = Some((size, requests, boxes));
        if clear {
            break;
        }
    }
    let (label_px, requests, boxes) =
        placed.ok_or_else(|| WebError::Draw("no size for the labels".into()))?;
    let plate = colour(style.background).mix(0.85);
    for (((text, _, text_colour), rect), request) in texts.iter().zip(&boxes).zip(&requests) {
        let font = super::chart::font(style, label_px)
            .color(text_colour)
            .pos(Pos::new(HPos::Center, VPos::Center));
        draw_label(
            root,
            text,
            font,
            rect,
            (request.anchor, *text_colour, big),
            plate,
        )?;
    }
    Ok(texts
        .iter()
        .zip(boxes)
        .map(|((text, _, _), rect)| (text.clone(), rect))
        .collect())
}

/// One label on its plate, with a thin leader to its point when it was pushed further than `big`
/// from it (so that it cannot be read as the name of a nearer point).
fn draw_label(
    root: &DrawingArea<Plotting<'static>, Shift>,
    text: &str,
    font: TextStyle,
    rect: &PixelRect,
    ((ax, ay), text_colour, big): ((f64, f64), RGBColor, f64),
    plate: RGBAColor,
) -> Result<(), WebError> {
    let nearest = (ax.clamp(rect.x0, rect.x1), ay.clamp(rect.y0, rect.y1));
    let reach = (nearest.0 - ax).hypot(nearest.1 - ay);
    if reach > big + 10.0 {
        let start = (
            ax + (nearest.0 - ax) * big / reach,
            ay + (nearest.1 - ay) * big / reach,
        );
        root.draw(&PathElement::new(
            vec![
                (start.0.round() as i32, start.1.round() as i32),
                (nearest.0.round() as i32, nearest.1.round() as i32),
            ],
            text_colour.stroke_width(1),
        ))
        .map_err(draw_error)?;
    }
    root.draw(&Rectangle::new(
        [
            (rect.x0.round() as i32, rect.y0.round() as i32),
            (rect.x1.round() as i32, rect.y1.round() as i32),
        ],
        plate.filled(),
    ))
    .map_err(draw_error)?;
    let middle = (
        ((rect.x0 + rect.x1) / 2.0).round() as i32,
        ((rect.y0 + rect.y1) / 2.0).round() as i32,
    );
    root.draw(&Text::new(text.to_string(), middle, font))
        .map_err(draw_error)?;
    Ok(())
}
