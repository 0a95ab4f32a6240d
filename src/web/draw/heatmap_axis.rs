//! The heatmaps' axes: ticks at the cells' centres only.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::Ranged;

/// An f64 axis whose ticks are given (integer cell indices, see `integer_ticks`), so that n = 1
/// still gets its "0" and no tick falls between two cells. (plotters' `WithKeyPoints` cannot be
/// labelled with a custom formatter.)
#[derive(Clone)]
pub struct TickedAxis {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl TickedAxis {
    pub fn new(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Self {
        TickedAxis {
            inner: range.into(),
            ticks,
        }
    }
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Ticks and bold grid lines only: no light lines between cell indices.
        if hint.max_num_points() == 0 || hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// Column names below the image, slanted by 45° and ending under their column.
pub(super) fn draw_slanted_names(
    context: &web_sys::CanvasRenderingContext2d,
    names: &[String],
    ticks: &[f64],
    columns: usize,
    rect: crate::model::plot::PixelRect,
    style: &crate::model::figure_style::FigureStyle,
) -> Result<(), crate::web::error::WebError> {
    context.save();
    context.set_font(&format!("{}px {}", style.label_px, style.font));
    context.set_fill_style_str(&style.ink.css());
    context.set_text_align("right");
    context.set_text_baseline("middle");
    let cell = rect.width() / columns.max(1) as f64;
    for &tick in ticks {
        let label = super::name_label(names, tick);
        let x = rect.x0 + (tick + 0.5) * cell;
        context.save();
        context.translate(x, rect.y1 + 10.0)?;
        context.rotate(-std::f64::consts::FRAC_PI_4)?;
        context.fill_text(&label, 0.0, 0.0)?;
        context.restore();
    }
    context.restore();
    Ok(())
}
