//! How big a canvas is drawn: its backing store in device pixels and the logical pixels its
//! drawing code works in.
//!
//! - The **backing store** is the canvas's CSS box times `devicePixelRatio`, so that one canvas
//!   pixel is one screen pixel: lines and text are sharp on a phone or laptop at DPR 2 instead of
//!   being a 1× image stretched by the browser.
//! - The **logical size** is what the drawing code (plotters charts, heatmap frames, labels) lays
//!   out in. Each canvas has a design size (its `width`/`height` attributes in `index.html`, e.g.
//!   680 × 440) whose fonts were chosen for it. Where the canvas is shown smaller than that (a
//!   phone), the logical size is the CSS size, so a 15 px label is 15 CSS px and stays readable
//!   instead of shrinking with the figure; where it is shown larger (a wide screen, a projector),
//!   the logical size is the design size, scaled up as a whole, so the text grows with the figure.

/// The sizes one drawing of a canvas uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CanvasSize {
    /// Width and height in the drawing code's pixels.
    pub logical: (u32, u32),
    /// Width and height of the backing store (device pixels).
    pub backing: (u32, u32),
}

impl CanvasSize {
    /// Device pixels per logical pixel, across and down (equal but for rounding).
    pub fn scale(&self) -> (f64, f64) {
        (
            f64::from(self.backing.0) / f64::from(self.logical.0.max(1)),
            f64::from(self.backing.1) / f64::from(self.logical.1.max(1)),
        )
    }
}

/// The largest backing store side (device pixels): a huge zoom or a bogus ratio must not allocate
/// an unbounded canvas (browsers refuse canvases beyond about 16 k pixels a side).
pub const MAX_BACKING_SIDE: u32 = 8192;

/// The sizes for a canvas of design size `design` shown at `css` (CSS pixels) on a screen of
/// `device_pixel_ratio`. A canvas that is not laid out (hidden: a CSS size of 0) is drawn at its
/// design size and 1×.
pub fn canvas_size(design: (u32, u32), css: (f64, f64), device_pixel_ratio: f64) -> CanvasSize {
    let design = (design.0.max(1), design.1.max(1));
    let shown = css.0.is_finite() && css.1.is_finite() && css.0 >= 1.0 && css.1 >= 1.0;
    if !shown {
        return CanvasSize {
            logical: design,
            backing: design,
        };
    }
    let ratio = if device_pixel_ratio.is_finite() && device_pixel_ratio > 0.0 {
        device_pixel_ratio
    } else {
        1.0
    };
    // Logical pixels per CSS pixel: 1 when the canvas is shown at its design width or smaller,
    // less when it is shown larger (the drawing is scaled up as a whole).
    let shrink = (f64::from(design.0) / css.0).min(1.0);
    let side = |v: f64| (v.round() as u32).clamp(1, MAX_BACKING_SIDE);
    CanvasSize {
        logical: (side(css.0 * shrink), side(css.1 * shrink)),
        backing: (side(css.0 * ratio), side(css.1 * ratio)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_draws_at_css_size_and_twice_the_pixels() {
        // A 680 × 440 chart shown 358 CSS px wide on a phone at DPR 3.
        let size = canvas_size((680, 440), (358.0, 231.6), 3.0);
        assert_eq!(size.logical, (358, 232));
        assert_eq!(size.backing, (1074, 695));
        let (sx, sy) = size.scale();
        assert!((sx - 3.0).abs() < 0.01 && (sy - 3.0).abs() < 0.02);
    }

    #[test]
    fn a_wide_screen_scales_the_design_up() {
        let size = canvas_size((680, 440), (1020.0, 660.0), 2.0);
        assert_eq!(size.logical, (680, 440));
        assert_eq!(size.backing, (2040, 1320));
        assert_eq!(size.scale(), (3.0, 3.0));
    }

    #[test]
    fn hidden_bad_ratios_and_huge_zooms_stay_bounded() {
        let design = (680, 440);
        let hidden = canvas_size(design, (0.0, 0.0), 2.0);
        assert_eq!((hidden.logical, hidden.backing), (design, design));
        assert_eq!(canvas_size(design, (f64::NAN, 3.0), 2.0).backing, design);
        for ratio in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(canvas_size(design, (680.0, 440.0), ratio).backing, design);
        }
        let huge = canvas_size(design, (680.0, 440.0), 1e6);
        assert_eq!(huge.backing, (MAX_BACKING_SIDE, MAX_BACKING_SIDE));
        assert_eq!(canvas_size((0, 0), (10.0, 10.0), 1.0).logical, (1, 1));
    }
}
