//! The projection panel's figure and sentence without the DOM: where its labels go (none on
//! another label, on a point, on an arrow or over the plot's edge) and the takeaway written from its live
//! numbers. Pure, so both are tested natively.

use super::obstacle_grid::ObstacleGrid;
use super::plot::{reduced_angle, PixelRect};

/// A label to place: its text's size, the point it names and the way it would rather go (away
/// from the circle's centre, so that it sits outside the ring of points), all in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelRequest {
    pub anchor: (f64, f64),
    /// Width and height of the text's box.
    pub size: (f64, f64),
    /// The preferred direction from the anchor (need not be of unit length; (0, 0): any).
    pub outward: (f64, f64),
}

pub use super::obstacle_grid::{Disc, Segment};

/// What a label must not cover besides the other labels: points and lines.
#[derive(Debug, Clone, Copy, Default)]
pub struct Obstacles<'a> {
    pub discs: &'a [Disc],
    pub segments: &'a [Segment],
}

/// Room left between a label and what it must not touch, in pixels.
pub const LABEL_PAD: f64 = 2.0;

/// Whether two boxes overlap (touching edges do not).
pub fn boxes_overlap(a: &PixelRect, b: &PixelRect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

/// Whether the disc reaches into the box.
pub fn disc_touches(rect: &PixelRect, disc: &Disc) -> bool {
    let nearest = (
        disc.centre.0.clamp(rect.x0, rect.x1),
        disc.centre.1.clamp(rect.y0, rect.y1),
    );
    let (dx, dy) = (disc.centre.0 - nearest.0, disc.centre.1 - nearest.1);
    dx * dx + dy * dy < disc.radius * disc.radius
}

/// The distance from point `p` to the segment from `a` to `b`.
fn point_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length2 = dx * dx + dy * dy;
    let t = if length2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - (a.0 + t * dx)).hypot(p.1 - (a.1 + t * dy))
}

/// Whether the segment from `a` to `b` crosses or enters the box (Liang–Barsky clipping).
fn segment_enters(rect: &PixelRect, a: (f64, f64), b: (f64, f64)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - rect.x0),
        (dx, rect.x1 - a.0),
        (-dy, a.1 - rect.y0),
        (dy, rect.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Whether the drawn segment (its stroke `half_width` to each side) reaches into the box.
pub fn segment_touches(rect: &PixelRect, segment: &Segment) -> bool {
    let (a, b) = (segment.from, segment.to);
    if segment_enters(rect, a, b) {
        return true;
    }
    // Apart, the nearest two points are an end of the segment and the box, or a corner of the box
    // and the segment.
    let corners = [
        (rect.x0, rect.y0),
        (rect.x1, rect.y0),
        (rect.x0, rect.y1),
        (rect.x1, rect.y1),
    ];
    let to_box = |p: (f64, f64)| {
        (p.0 - p.0.clamp(rect.x0, rect.x1)).hypot(p.1 - p.1.clamp(rect.y0, rect.y1))
    };
    let nearest = corners
        .iter()
        .map(|&c| point_to_segment(c, a, b))
        .chain([to_box(a), to_box(b)])
        .fold(f64::INFINITY, f64::min);
    nearest < segment.half_width
}

/// Whether `inner` lies inside `outer`.
pub fn inside(inner: &PixelRect, outer: &PixelRect) -> bool {
    inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1
}

/// The box of a label of `size` put `gap` pixels from `anchor` in direction `(ux, uy)` (unit):
/// its near side faces the anchor, so a longer label grows away from its point.
fn candidate(anchor: (f64, f64), size: (f64, f64), (ux, uy): (f64, f64), gap: f64) -> PixelRect {
    let centre = (
        anchor.0 + ux * (gap + size.0 / 2.0),
        anchor.1 + uy * (gap + size.1 / 2.0),
    );
    PixelRect {
        x0: centre.0 - size.0 / 2.0,
        y0: centre.1 - size.1 / 2.0,
        x1: centre.0 + size.0 / 2.0,
        y1: centre.1 + size.1 / 2.0,
    }
}

/// How much a box breaks the rules: the overlap with placed labels, the points and lines it
/// covers and the area outside the plot (0: it breaks none).
fn penalty(
    rect: &PixelRect,
    placed: &[PixelRect],
    (avoid, near): (&Obstacles, &mut Near),
    plot: &PixelRect,
) -> f64 {
    let overlap = |a: &PixelRect, b: &PixelRect| {
        let w = (a.x1.min(b.x1) - a.x0.max(b.x0)).max(0.0);
        let h = (a.y1.min(b.y1) - a.y0.max(b.y0)).max(0.0);
        w * h
    };
    let outside = rect.width() * rect.height() - overlap(rect, plot);
    let labels: f64 = placed.iter().map(|p| overlap(rect, p)).sum();
    // Only the obstacles filed near the box can touch it (`ObstacleGrid` is exact).
    let (discs, segments) = near.grid.near(rect, &mut near.seen);
    let points = discs
        .iter()
        .filter(|&&i| disc_touches(rect, &avoid.discs[i]))
        .count()
        + segments
            .iter()
            .filter(|&&i| segment_touches(rect, &avoid.segments[i]))
            .count();
    outside + labels + 25.0 * points as f64
}

/// The obstacles grown by [`LABEL_PAD`].
/// The padded obstacles' grid and its scratch, for [`penalty`].
struct Near {
    grid: ObstacleGrid,
    seen: Vec<bool>,
}

fn padded(avoid: &Obstacles) -> (Vec<Disc>, Vec<Segment>) {
    (
        avoid
            .discs
            .iter()
            .map(|d| Disc {
                radius: d.radius + LABEL_PAD,
                ..*d
            })
            .collect(),
        avoid
            .segments
            .iter()
            .map(|s| Segment {
                half_width: s.half_width + LABEL_PAD,
                ..*s
            })
            .collect(),
    )
}

/// Places each label, in order, at the first free spot near its anchor: tried outward first,
/// then turning away from that direction step by step and moving further out, so that every box
/// lies inside `plot` and overlaps no label placed before it, no disc and no segment (each grown
/// by [`LABEL_PAD`]). Where no spot is free (a plot too small for its labels) the least bad one is
/// taken. Returns the boxes, in canvas pixels.
pub fn place_labels(
    labels: &[LabelRequest],
    avoid: &Obstacles,
    plot: &PixelRect,
) -> Vec<PixelRect> {
    let (discs, segments) = padded(avoid);
    let padded = Obstacles {
        discs: &discs,
        segments: &segments,
    };
    let room = PixelRect {
        x0: plot.x0 + LABEL_PAD,
        y0: plot.y0 + LABEL_PAD,
        x1: plot.x1 - LABEL_PAD,
        y1: plot.y1 - LABEL_PAD,
    };
    let mut near = Near {
        grid: ObstacleGrid::new(&discs, &segments, plot),
        seen: Vec::new(),
    };
    let mut placed: Vec<PixelRect> = Vec::with_capacity(labels.len());
    for label in labels {
        let length = label.outward.0.hypot(label.outward.1);
        let base = if length > 1e-9 {
            label.outward.1.atan2(label.outward.0)
        } else {
            -std::f64::consts::FRAC_PI_2
        };
        let mut best: Option<(f64, PixelRect)> = None;
        // Nearer first, and at each distance the directions closest to the preferred one first;
        // as far as the plot's corners where the arrows fill the ring (a leader then names the
        // point).
        let reach = plot.width().hypot(plot.height());
        let steps = ((reach - 3.0) / 5.0).ceil().max(14.0) as usize;
        'search: for step in 0..steps {
            let gap = 3.0 + 5.0 * step as f64;
            for turn in 0..=18 {
                for sign in [1.0, -1.0] {
                    if turn == 0 && sign < 0.0 {
                        continue;
                    }
                    let angle = base + sign * turn as f64 * std::f64::consts::PI / 18.0;
                    let rect = candidate(label.anchor, label.size, (angle.cos(), angle.sin()), gap);
                    let cost = penalty(&rect, &placed, (&padded, &mut near), &room);
                    if best.as_ref().map_or(true, |(c, _)| cost < *c) {
                        best = Some((cost, rect));
                    }
                    if cost == 0.0 {
                        break 'search;
                    }
                }
            }
        }
        let fallback = candidate(label.anchor, label.size, (0.0, 0.0), 0.0);
        placed.push(best.map_or(fallback, |(_, rect)| rect));
    }
    placed
}

/// Whether every box lies inside `plot` (less [`LABEL_PAD`]), apart from the others and off every
/// disc and segment: what [`place_labels`] aims for, and what the figure checks before it settles
/// for a size of type (a smaller one where the labels do not fit).
pub fn all_clear(boxes: &[PixelRect], avoid: &Obstacles, plot: &PixelRect) -> bool {
    let room = PixelRect {
        x0: plot.x0 + LABEL_PAD,
        y0: plot.y0 + LABEL_PAD,
        x1: plot.x1 - LABEL_PAD,
        y1: plot.y1 - LABEL_PAD,
    };
    boxes.iter().enumerate().all(|(k, a)| {
        inside(a, &room)
            && boxes[k + 1..].iter().all(|b| !boxes_overlap(a, b))
            && avoid.discs.iter().all(|d| !disc_touches(a, d))
            && avoid.segments.iter().all(|s| !segment_touches(a, s))
    })
}

/// `x` to `digits` significant digits (at least 2 and at most 4 for the page's sentences):
/// 0.1778, 10.19, 0.0008892, 8.89e-6 below 10⁻⁴.
pub fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    if x.abs() < 1e-4 {
        return format!("{x:.*e}", digits.saturating_sub(1));
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (digits as i64 - 1 - magnitude).clamp(0, 8) as usize;
    format!("{x:.decimals$}")
}

/// What the projection panel's takeaway needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionFacts {
    /// Whether d ≥ 2 gives a (sin, cos) pair at all.
    pub has_pair: bool,
    pub pair: usize,
    pub delta: i64,
    /// ω_j, radians per position.
    pub omega: f64,
    /// Positions i whose partner i + δ is in P (n − |δ|).
    pub partners: usize,
    /// max |M·p_i − p_(i+δ)| over every position and complete pair.
    pub max_error: f64,
    /// Whether P is the textbook float32 one (its angles themselves are rounded).
    pub textbook: bool,
}

/// Below this the projection's miss is the rounding of P's float32 entries (a few units in the
/// last place of numbers up to 1, 2⁻²⁴ ≈ 6e-8 each); the textbook P misses by far more.
pub const PROJECTION_ROUNDING: f64 = 1e-6;

/// The projection panel's one sentence: the same turn for every i, with the live angle, the number
/// of positions and the largest miss, or what holds where that does not apply.
pub fn projection_takeaway(f: &ProjectionFacts) -> String {
    if !f.has_pair {
        return crate::message!("takeaway-projection-no-pair");
    }
    if f.delta == 0 && f.partners <= 1 {
        return crate::message!("takeaway-projection-one-position");
    }
    if f.delta == 0 {
        return crate::message!("takeaway-projection-no-offset");
    }
    let angle = f.delta as f64 * f.omega;
    let turn = if angle.abs() <= std::f64::consts::PI {
        crate::message!(
            "takeaway-projection-turn",
            radians = significant(angle, 4),
            degrees = significant(angle.to_degrees(), 3)
        )
    } else {
        crate::message!(
            "takeaway-projection-turn-wrapped",
            radians = significant(angle, 4),
            degrees = significant(reduced_angle(angle).to_degrees(), 3)
        )
    };
    let why = if f.textbook {
        crate::message!("takeaway-projection-why-textbook")
    } else if f.max_error < PROJECTION_ROUNDING {
        crate::message!("takeaway-projection-why-rounding")
    } else {
        String::new()
    };
    crate::message!(
        "takeaway-projection",
        pair = f.pair,
        turn = turn,
        positions = crate::message!("takeaway-projection-positions", count = f.partners),
        error = format!("{:.2e}", f.max_error),
        why = why
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> PixelRect {
        PixelRect {
            x0: 50.0,
            y0: 40.0,
            x1: 490.0,
            y1: 470.0,
        }
    }

    fn check(boxes: &[PixelRect], avoid: &Obstacles, plot: &PixelRect) {
        for (k, a) in boxes.iter().enumerate() {
            assert!(inside(a, plot), "label {k} {a:?} leaves the plot {plot:?}");
            for b in &boxes[k + 1..] {
                assert!(!boxes_overlap(a, b), "labels overlap: {a:?} {b:?}");
            }
            for d in avoid.discs {
                assert!(!disc_touches(a, d), "label {a:?} covers {d:?}");
            }
            for s in avoid.segments {
                assert!(!segment_touches(a, s), "label {a:?} covers the line {s:?}");
            }
        }
        assert!(all_clear(boxes, avoid, plot));
    }

    /// Every position's arrow from p_i to p_(i+δ), as the figure draws them.
    fn arrows(discs: &[Disc], n: usize, delta: usize) -> Vec<Segment> {
        (0..n.saturating_sub(delta))
            .map(|i| Segment {
                from: discs[i].centre,
                to: discs[i + delta].centre,
                half_width: 1.0,
            })
            .collect()
    }

    /// The figure's own case: points on a circle, p_i and its neighbour p_(i+1) one step apart.
    fn ring(plot: &PixelRect, n: usize, omega: f64) -> (Vec<Disc>, (f64, f64), f64) {
        let centre = ((plot.x0 + plot.x1) / 2.0, (plot.y0 + plot.y1) / 2.0);
        let radius = plot.width().min(plot.height()) / 2.6;
        let discs = (0..n)
            .map(|i| {
                let a = i as f64 * omega;
                Disc {
                    centre: (centre.0 + radius * a.sin(), centre.1 - radius * a.cos()),
                    radius: 3.0,
                }
            })
            .collect();
        (discs, centre, radius)
    }

    fn request(discs: &[Disc], centre: (f64, f64), k: usize, width: f64) -> LabelRequest {
        let anchor = discs[k].centre;
        LabelRequest {
            anchor,
            size: (width, 20.0),
            outward: (anchor.0 - centre.0, anchor.1 - centre.1),
        }
    }

    #[test]
    fn the_issue_cases_get_apart_and_inside() {
        // "p_0" on "p_1 = M·p_0" (δ = 1, i = 0) and "p_10 = M·p_(" cut at the edge (i = 9): on a
        // laptop's plot and on a phone's.
        for plot in [
            plot(),
            PixelRect {
                x0: 44.0,
                y0: 36.0,
                x1: 340.0,
                y1: 320.0,
            },
        ] {
            for (n, omega) in [(60, 0.1778), (60, 1.0), (2048, 0.1778), (8, 1e-4)] {
                let (mut discs, centre, _) = ring(&plot, n, omega);
                for i in [0, 9, 7, n - 2].into_iter().filter(|&i| i + 1 < n) {
                    let target = i + 1;
                    discs.push(Disc {
                        centre: discs[target].centre,
                        radius: 12.0,
                    });
                    let labels = [
                        request(&discs, centre, target, 118.0),
                        request(&discs, centre, i, 34.0),
                    ];
                    let avoid = Obstacles {
                        discs: &discs,
                        segments: &[],
                    };
                    let boxes = place_labels(&labels, &avoid, &plot);
                    check(&boxes, &avoid, &plot);
                    discs.pop();
                }
            }
        }
    }

    #[test]
    fn labels_keep_off_the_arrows() {
        // An arrow leaving its point in the direction its label prefers: the label goes elsewhere.
        let arrow = Segment {
            from: (200.0, 200.0),
            to: (400.0, 200.0),
            half_width: 1.0,
        };
        let label = LabelRequest {
            anchor: (200.0, 200.0),
            size: (60.0, 20.0),
            outward: (1.0, 0.0),
        };
        let avoid = Obstacles {
            discs: &[],
            segments: &[arrow],
        };
        let boxes = place_labels(&[label], &avoid, &plot());
        check(&boxes, &avoid, &plot());
        // Without the arrow the label would have sat on it.
        let plain = place_labels(&[label], &Obstacles::default(), &plot());
        assert!(segment_touches(&plain[0], &arrow));
        // The figure's own case: every position's arrow to p_(i+δ) among the points, on a laptop's
        // plot and on a projector's small one with large type, for short and crossing arrows.
        for (plot, width) in [
            (plot(), 118.0),
            (
                PixelRect {
                    x0: 60.0,
                    y0: 40.0,
                    x1: 380.0,
                    y1: 360.0,
                },
                150.0,
            ),
        ] {
            for (n, omega, delta) in [(60, 0.1778, 1), (60, 1.0, 1), (60, 1.0, 5), (40, 0.5, 3)] {
                let (mut discs, centre, _) = ring(&plot, n, omega);
                let segments = arrows(&discs, n, delta);
                for i in [0, 9, n - 1 - delta] {
                    let target = i + delta;
                    discs.push(Disc {
                        centre: discs[target].centre,
                        radius: 12.0,
                    });
                    let labels = [
                        request(&discs, centre, target, width),
                        request(&discs, centre, i, 34.0),
                    ];
                    let avoid = Obstacles {
                        discs: &discs,
                        segments: &segments,
                    };
                    let boxes = place_labels(&labels, &avoid, &plot);
                    check(&boxes, &avoid, &plot);
                    discs.pop();
                }
            }
        }
    }

    #[test]
    fn segments_touch_boxes_they_cross_or_come_near() {
        let rect = PixelRect {
            x0: 10.0,
            y0: 10.0,
            x1: 20.0,
            y1: 20.0,
        };
        let line = |from, to, half_width| Segment {
            from,
            to,
            half_width,
        };
        // Through it, ending inside it, wholly inside it.
        assert!(segment_touches(
            &rect,
            &line((0.0, 15.0), (30.0, 15.0), 0.5)
        ));
        assert!(segment_touches(&rect, &line((0.0, 0.0), (12.0, 12.0), 0.5)));
        assert!(segment_touches(
            &rect,
            &line((12.0, 12.0), (14.0, 14.0), 0.5)
        ));
        // Past a corner: by its stroke's width only.
        let past = line((0.0, 18.0), (18.0, 0.0), 0.5);
        assert!(!segment_touches(&rect, &past));
        assert!(segment_touches(
            &rect,
            &Segment {
                half_width: 2.0,
                ..past
            }
        ));
        // Beside it, and ending short of it.
        assert!(!segment_touches(
            &rect,
            &line((0.0, 25.0), (30.0, 25.0), 2.0)
        ));
        assert!(segment_touches(
            &rect,
            &line((0.0, 21.0), (30.0, 21.0), 2.0)
        ));
        assert!(!segment_touches(
            &rect,
            &line((0.0, 15.0), (7.0, 15.0), 2.0)
        ));
    }

    #[test]
    fn boxes_and_discs() {
        let a = PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        let b = PixelRect {
            x0: 10.0,
            y0: 0.0,
            x1: 20.0,
            y1: 10.0,
        };
        assert!(!boxes_overlap(&a, &b));
        assert!(boxes_overlap(&a, &PixelRect { x0: 9.0, ..b }));
        let near = Disc {
            centre: (13.0, 5.0),
            radius: 2.5,
        };
        assert!(disc_touches(&b, &near) && !disc_touches(&a, &near));
        assert!(!inside(&a, &plot()));
    }

    #[test]
    fn an_impossible_plot_still_gets_a_box_per_label() {
        let tiny = PixelRect {
            x0: 0.0,
            y0: 0.0,
            x1: 20.0,
            y1: 20.0,
        };
        let labels = [LabelRequest {
            anchor: (10.0, 10.0),
            size: (100.0, 20.0),
            outward: (0.0, 0.0),
        }; 2];
        assert_eq!(place_labels(&labels, &Obstacles::default(), &tiny).len(), 2);
    }

    fn facts() -> ProjectionFacts {
        ProjectionFacts {
            has_pair: true,
            pair: 3,
            delta: 1,
            omega: 10000f64.powf(-6.0 / 32.0),
            partners: 59,
            max_error: 5.96e-8,
            textbook: false,
        }
    }

    #[test]
    fn the_takeaway_says_what_the_numbers_show() {
        assert_eq!(
            projection_takeaway(&facts()),
            "Yes: every arrow turns by the same δ·ω_3 = 0.1778 rad (10.2°), so one matrix M carries p_i to p_(i+δ) for all 59 positions i, missing by at most 5.96e-8 (float32 rounding)."
        );
        // More than half a turn: the turn the matrix makes is said too.
        let far = projection_takeaway(&ProjectionFacts {
            pair: 0,
            delta: -40,
            omega: 1.0,
            partners: 20,
            ..facts()
        });
        assert!(far.contains("-40.00 rad, a turn of -132°"), "{far}");
        // A slow pair's small turn keeps its digits.
        let slow = projection_takeaway(&ProjectionFacts {
            pair: 15,
            delta: 5,
            omega: 10000f64.powf(-30.0 / 32.0),
            ..facts()
        });
        assert!(slow.contains("= 0.0008891 rad (0.0509°)"), "{slow}");
        assert_eq!(significant(8.891e-6, 3), "8.89e-6");
        assert_eq!(significant(10.186, 3), "10.2");
        let textbook = projection_takeaway(&ProjectionFacts {
            max_error: 2.1e-4,
            textbook: true,
            ..facts()
        });
        assert!(
            textbook.ends_with("2.10e-4 (the textbook float32 angles)."),
            "{textbook}"
        );
        // A large miss of the exact P is not called rounding.
        let odd = projection_takeaway(&ProjectionFacts {
            max_error: 1e-3,
            ..facts()
        });
        assert!(!odd.contains("rounding"), "{odd}");
        assert!(projection_takeaway(&ProjectionFacts {
            delta: 1,
            partners: 1,
            ..facts()
        })
        .contains("for the 1 position i,"));
        assert!(projection_takeaway(&ProjectionFacts {
            delta: 0,
            ..facts()
        })
        .starts_with("With δ = 0, M is the identity"));
        assert!(projection_takeaway(&ProjectionFacts {
            delta: 0,
            partners: 1,
            ..facts()
        })
        .starts_with("With n = 1 there is one position"));
        assert!(projection_takeaway(&ProjectionFacts {
            has_pair: false,
            ..facts()
        })
        .starts_with("With d = 1"));
    }
}
