//! The offset projection's labels: what they keep off (every point, arrow and radius, the ring
//! and the turn's arc), where they go (placed by `model::projection_figure`, a size smaller each
//! time they do not all fit), and their plates and leaders.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{ArrowStrokes, ChosenTurn, Marks, PairColumns, Plane};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::PixelRect;
use crate::model::projection_figure::{
    all_clear, place_labels, Disc, LabelRequest, Obstacles, Segment,
};
use crate::web::draw::chart::{self, colour};
use crate::web::error::{draw_error, WebError};
use crate::web::surface::Plotting;

/// What the figure drew that its labels name or keep off.
pub(super) struct Scene<'a, 'p> {
    pub columns: &'a PairColumns<'p>,
    pub turn: &'a ChosenTurn,
    pub marks: &'a Marks,
    pub arrows: &'a ArrowStrokes,
    /// The samples of the chosen turn's arc (none for no turn).
    pub arc: &'a [(f64, f64)],
    /// The positions of p_i and p_(i+δ), and δ.
    pub positions: (usize, usize),
    pub delta: i64,
}

/// The labels as drawn, and what they kept off, in logical pixels (see [`super::Projection`]).
pub(super) struct PlacedLabels {
    pub labels: Vec<(String, PixelRect)>,
    pub points: Vec<[f64; 3]>,
    pub lines: Vec<[f64; 5]>,
}

/// The scene's labels, placed in pixels (`model::projection_figure`) so that none covers another,
/// a point, an arrow, a radius, the ring or the turn's arc, and none leaves `plot`, and drawn.
pub(super) fn draw_scene_labels(
    root: &DrawingArea<Plotting<'static>, Shift>,
    chart: &Plane,
    scene: &Scene,
    plot: &PixelRect,
    style: &FigureStyle,
) -> Result<PlacedLabels, WebError> {
    let px = |at: (f64, f64)| {
        let (x, y) = chart.backend_coord(&at);
        (f64::from(x), f64::from(y))
    };
    let discs = obstacles(scene.columns, scene.turn, scene.arc, scene.marks, &px);
    let segments = line_obstacles(scene.arrows, scene.turn, scene.marks, &px);
    let texts = label_texts(scene.positions, scene.delta, scene.turn, scene.marks, &px);
    let labels = draw_labels(
        root,
        style,
        &texts,
        &Obstacles {
            discs: &discs,
            segments: &segments,
        },
        px((0.0, 0.0)),
        plot,
        scene.marks.big,
    )?;
    Ok(PlacedLabels {
        labels,
        points: discs
            .iter()
            .map(|d| [d.centre.0, d.centre.1, d.radius])
            .collect(),
        lines: segments
            .iter()
            .map(|s| [s.from.0, s.from.1, s.to.0, s.to.1, s.half_width])
            .collect(),
    })
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
                let font = chart::font(style, label_px);
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
        let font = chart::font(style, label_px)
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
