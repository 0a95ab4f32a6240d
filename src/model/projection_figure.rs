//! The projection panel's figure without the DOM: where its labels go (none on another label, on a
//! point, on an arrow or over the plot's edge). Pure, so tested natively; `web::draw::projection`
//! draws the labels where it puts them. The panel's takeaway is `panels::projection::takeaway`.

use super::obstacle_grid::ObstacleGrid;
use super::plot::PixelRect;

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
}
