//! The complexity panel's chart: the operations of a CNN, an RNN and self-attention layer against
//! the sequence length n on log–log axes (plotters on the panel's canvas), the crossovers n = d and
//! n = k·d marked and the current n a dot on each curve.

use crate::web::surface;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::super::draw::curves::PALETTE;
use super::super::draw::heatmap::{DESC_FONT, LABEL_FONT};
use super::super::error::{draw_error, WebError};
use crate::math::complexity::{layer_costs, log_spaced_lengths};
use crate::model::complexity::{cnn_curve_label, crossover_marks};

/// A labelled, coloured curve of (n, operations).
type Curve = (String, RGBColor, Vec<(f64, f64)>);

/// Operations against n on log–log axes, the crossovers marked, the current n a dot.
pub(super) fn draw_chart(
    canvas: &HtmlCanvasElement,
    n: usize,
    d: usize,
    k: usize,
) -> Result<(), WebError> {
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let high = (4 * n.max(k * d)).clamp(16, 10_000_000);
    let ns = log_spaced_lengths(1, high, 80);
    let curves: Vec<Curve> = [
        (cnn_curve_label(k), PALETTE[2]),
        ("RNN n·d²".to_string(), PALETTE[0]),
        ("self-attention n²·d".to_string(), PALETTE[5]),
    ]
    .into_iter()
    .enumerate()
    .map(|(which, (label, colour))| {
        let points = ns
            .iter()
            .filter_map(|&m| layer_costs(m, d, k).ok().map(|c| (m, c)))
            .map(|(m, c)| {
                let ops = match which {
                    0 => c.cnn.operations,
                    1 => c.rnn.operations,
                    _ => c.self_attention.operations,
                };
                (m as f64, ops)
            })
            .collect();
        (label, colour, points)
    })
    .collect();
    let (low_y, high_y) = curves
        .iter()
        .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y))
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(
            (1f64..high as f64).log_scale(),
            (low_y.max(1.0) * 0.5..high_y * 2.0).log_scale(),
        )
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Sequence length n (log)")
        .y_desc("Operations (log)")
        .label_style(LABEL_FONT)
        .axis_desc_style(DESC_FONT)
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&|v| format_axis(*v))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(draw_error)?;
    for (label, colour, points) in &curves {
        let colour = *colour;
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))
            .map_err(draw_error)?
            .label(label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3))
            });
        // The current n.
        let at = layer_costs(n, d, k)?;
        let y = if colour == PALETTE[2] {
            at.cnn.operations
        } else if colour == PALETTE[0] {
            at.rnn.operations
        } else {
            at.self_attention.operations
        };
        chart
            .draw_series(std::iter::once(Circle::new(
                (n as f64, y),
                6,
                colour.filled(),
            )))
            .map_err(draw_error)?;
    }
    // The crossovers: vertical lines at n = d and n = k·d (those inside the axis).
    // The two labels sit at different heights; one near the right edge goes left of its line.
    for (x, text, cnn) in crossover_marks(d, k, high) {
        let (colour, lift) = if cnn {
            (PALETTE[2], 60.0)
        } else {
            (BLACK, 3.0)
        };
        let top = high_y * 2.0;
        let bottom = low_y.max(1.0) * 0.5;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x, bottom), (x, top)],
                6,
                4,
                colour.mix(0.7).stroke_width(2),
            ))
            .map_err(draw_error)?;
        let near_right = x > high as f64 / 10.0;
        let (at, anchor) = if near_right {
            (x / 1.08, Pos::new(HPos::Right, VPos::Bottom))
        } else {
            (x * 1.08, Pos::new(HPos::Left, VPos::Bottom))
        };
        chart
            .draw_series(std::iter::once(Text::new(
                text,
                (at, bottom * lift),
                LABEL_FONT.into_font().color(&colour).pos(anchor),
            )))
            .map_err(draw_error)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(LABEL_FONT)
        .draw()
        .map_err(draw_error)?;
    root.present().map_err(draw_error)?;
    Ok(())
}

fn format_axis(v: f64) -> String {
    if v >= 1e4 {
        format!("{v:.0e}")
    } else {
        format!("{v:.0}")
    }
}
