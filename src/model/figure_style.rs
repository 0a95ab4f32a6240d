//! One look for every figure on the page: the colours of its paper, text, grid and frame, its
//! series palette, and the sizes of its type, for the page's theme (light or dark) and mode
//! (normal or projector). Every chart (plotters or hand-drawn) and every heatmap frame takes its
//! colours and type from here, and so do their PNG and SVG exports (an export is drawn in the theme
//! the page is shown in).
//!
//! The colour maps of the data (blue–white–red, viridis) are not part of the look: a value has
//! the same colour in every theme, and its colour bar says so.

/// The page's theme and mode, as the figures see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FigureLook {
    /// The dark theme is shown (chosen, or the system's while the theme follows the system).
    pub dark: bool,
    /// Projector mode: larger type and thicker lines.
    pub projector: bool,
    /// The page's type size in whole CSS pixels in projector mode (it grows with the picture's
    /// width: `www/layout.css`); 0 where unknown or not presenting.
    pub page_px: u16,
}

impl FigureLook {
    /// The look as one number, for the lazy modules' `render` (another wasm module: a number
    /// crosses the boundary where this struct cannot), so that a module draws with the look the
    /// page read for this frame instead of reading the page again: bit 0 dark, bit 1 projector,
    /// bits 16–31 `page_px`.
    pub const fn to_bits(self) -> u32 {
        (self.page_px as u32) << 16 | (self.projector as u32) << 1 | self.dark as u32
    }

    /// The look [`FigureLook::to_bits`] wrote.
    pub const fn from_bits(bits: u32) -> FigureLook {
        FigureLook {
            dark: bits & 1 != 0,
            projector: bits & 2 != 0,
            page_px: (bits >> 16) as u16,
        }
    }
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour as CSS (`rgb(r, g, b)`), for a 2D context's fill and stroke styles.
    pub fn css(self) -> String {
        format!("rgb({}, {}, {})", self.0, self.1, self.2)
    }

    /// The colour as CSS with an opacity in [0, 1].
    pub fn css_alpha(self, alpha: f64) -> String {
        format!(
            "rgba({}, {}, {}, {})",
            self.0,
            self.1,
            self.2,
            alpha.clamp(0.0, 1.0)
        )
    }

    /// Relative luminance (WCAG 2), for contrast checks.
    pub fn luminance(self) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }
}

/// WCAG 2 contrast ratio of two colours (1 to 21).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (a.luminance(), b.luminance());
    let (light, dark) = if la > lb { (la, lb) } else { (lb, la) };
    (light + 0.05) / (dark + 0.05)
}

/// Colours and type of every figure for one [`FigureLook`].
#[derive(Debug, Clone, PartialEq)]
pub struct FigureStyle {
    pub look: FigureLook,
    /// The figure's paper (the canvas is filled with it first).
    pub background: Rgb,
    /// Tick labels, axis titles, legend text, values beside bars.
    pub ink: Rgb,
    /// Secondary text: captions inside a figure, notes, hatching.
    pub muted: Rgb,
    /// Grid lines.
    pub grid: Rgb,
    /// Axis lines and the frames of heatmaps and colour bars.
    pub frame: Rgb,
    /// Series colours, in order (Okabe–Ito, told apart by colour-blind readers; lightened in the
    /// dark theme where the original is too dark to read on dark paper).
    pub series: [Rgb; 8],
    /// Type sizes in the drawing code's logical pixels (see `model::canvas`).
    pub tick_px: f64,
    pub label_px: f64,
    pub title_px: f64,
    pub legend_px: f64,
    /// Stroke widths of data lines and of axes, in logical pixels.
    pub line_px: f64,
    pub axis_px: f64,
    /// The font family every figure uses (the page's sans-serif).
    pub font: &'static str,
}

const LIGHT_SERIES: [Rgb; 8] = [
    Rgb(0x00, 0x72, 0xb2),
    Rgb(0xe6, 0x9f, 0x00),
    Rgb(0x00, 0x9e, 0x73),
    Rgb(0xcc, 0x79, 0xa7),
    Rgb(0xd5, 0x5e, 0x00),
    Rgb(0x56, 0xb4, 0xe9),
    Rgb(0x33, 0x33, 0x33),
    Rgb(0x88, 0x88, 0x88),
];

const DARK_SERIES: [Rgb; 8] = [
    Rgb(0x56, 0xb4, 0xe9),
    Rgb(0xf0, 0xb3, 0x2a),
    Rgb(0x2f, 0xc9, 0x9b),
    Rgb(0xe0, 0x9b, 0xc4),
    Rgb(0xff, 0x8a, 0x3d),
    Rgb(0x9f, 0xd4, 0xf5),
    Rgb(0xe8, 0xed, 0xf2),
    Rgb(0x9a, 0xa5, 0xb1),
];

/// How much larger a projector's figure type is than a laptop's, at least: the prose grows from 16
/// to 20–26 px (`layout.css`), and chart type must grow at least as much to be read from the back
/// of a room.
pub const PROJECTOR_TYPE_SCALE: f64 = 1.5;

/// In projector mode a chart's tick labels are this fraction of the page's type, so that they
/// grow with it: 24 px on a 1920 px picture (26 px type), never below the smallest scale.
const PROJECTOR_TICK_PER_PAGE_PX: f64 = 0.94;

/// The factor the figures' type is scaled by in `look`.
pub fn type_scale(look: FigureLook) -> f64 {
    if !look.projector {
        return 1.0;
    }
    let from_page = PROJECTOR_TICK_PER_PAGE_PX * f64::from(look.page_px) / 13.0;
    from_page.max(PROJECTOR_TYPE_SCALE)
}

impl FigureStyle {
    pub fn for_look(look: FigureLook) -> Self {
        let scale = type_scale(look);
        let (background, ink, muted, grid, frame, series) = match (look.dark, look.projector) {
            (false, false) => (
                Rgb(0xff, 0xff, 0xff),
                Rgb(0x1f, 0x23, 0x28),
                Rgb(0x57, 0x60, 0x6a),
                Rgb(0xe6, 0xe9, 0xed),
                Rgb(0x6e, 0x77, 0x81),
                LIGHT_SERIES,
            ),
            (false, true) => (
                Rgb(0xff, 0xff, 0xff),
                Rgb(0x00, 0x00, 0x00),
                Rgb(0x22, 0x22, 0x22),
                Rgb(0xd0, 0xd4, 0xd9),
                Rgb(0x33, 0x33, 0x33),
                LIGHT_SERIES,
            ),
            (true, false) => (
                Rgb(0x1b, 0x21, 0x29),
                Rgb(0xe8, 0xed, 0xf2),
                Rgb(0xa8, 0xb3, 0xbf),
                Rgb(0x2e, 0x38, 0x43),
                Rgb(0x8a, 0x96, 0xa3),
                DARK_SERIES,
            ),
            (true, true) => (
                Rgb(0x10, 0x15, 0x1b),
                Rgb(0xff, 0xff, 0xff),
                Rgb(0xdd, 0xdd, 0xdd),
                Rgb(0x3a, 0x45, 0x51),
                Rgb(0xbb, 0xc4, 0xce),
                DARK_SERIES,
            ),
        };
        Self {
            look,
            background,
            ink,
            muted,
            grid,
            frame,
            series,
            tick_px: 13.0 * scale,
            label_px: 15.0 * scale,
            title_px: 15.0 * scale,
            legend_px: 13.0 * scale,
            line_px: if look.projector { 3.0 } else { 2.0 },
            axis_px: if look.projector { 2.0 } else { 1.0 },
            font: "sans-serif",
        }
    }

    /// Series colour `k` (the palette repeats past its end).
    pub fn series(&self, k: usize) -> Rgb {
        self.series[k % self.series.len()]
    }

    /// The colour of text written on a fill of colour `fill` (a value inside a bar or a cell):
    /// whichever of black and white contrasts more with it.
    pub fn text_on(fill: Rgb) -> Rgb {
        let black = Rgb(0, 0, 0);
        let white = Rgb(0xff, 0xff, 0xff);
        if contrast(fill, black) >= contrast(fill, white) {
            black
        } else {
            white
        }
    }
}

impl Default for FigureStyle {
    fn default() -> Self {
        Self::for_look(FigureLook::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_look() -> Vec<FigureLook> {
        [false, true]
            .into_iter()
            .flat_map(|dark| {
                [false, true].map(|projector| FigureLook {
                    dark,
                    projector,
                    page_px: 0,
                })
            })
            .collect()
    }

    #[test]
    fn a_look_survives_its_bits() {
        for look in every_look() {
            for page_px in [0, 1, 23, u16::MAX] {
                let look = FigureLook { page_px, ..look };
                assert_eq!(FigureLook::from_bits(look.to_bits()), look);
            }
        }
    }

    #[test]
    fn text_and_lines_are_readable_on_the_paper_of_every_look() {
        for look in every_look() {
            let style = FigureStyle::for_look(look);
            // WCAG AA: 4.5 for text, 3 for graphics (series lines, axes).
            assert!(contrast(style.ink, style.background) >= 7.0, "{look:?} ink");
            assert!(
                contrast(style.muted, style.background) >= 4.5,
                "{look:?} muted"
            );
            assert!(
                contrast(style.frame, style.background) >= 3.0,
                "{look:?} frame"
            );
            for k in 0..6 {
                let c = contrast(style.series(k), style.background);
                assert!(c >= 2.0, "{look:?} series {k}: contrast {c:.2}");
            }
        }
    }

    #[test]
    fn dark_looks_have_dark_paper_and_light_looks_white_paper() {
        for look in every_look() {
            let style = FigureStyle::for_look(look);
            assert_eq!(style.background.luminance() < 0.1, look.dark, "{look:?}");
        }
    }

    #[test]
    fn projector_type_is_larger_and_lines_thicker() {
        let laptop = FigureStyle::for_look(FigureLook::default());
        let projector = FigureStyle::for_look(FigureLook {
            dark: false,
            projector: true,
            page_px: 20,
        });
        assert!(projector.tick_px >= laptop.tick_px * 1.4);
        assert!(projector.label_px >= laptop.label_px * 1.4);
        assert!(projector.line_px > laptop.line_px);
        // On a full-HD projector (26 px page type) chart text is at least 24 px.
        let full_hd = FigureStyle::for_look(FigureLook {
            dark: false,
            projector: true,
            page_px: 26,
        });
        for px in [full_hd.tick_px, full_hd.label_px, full_hd.legend_px] {
            assert!(px >= 24.0, "{px}");
        }
        assert!(full_hd.tick_px > projector.tick_px);
    }

    #[test]
    fn text_on_a_fill_is_black_on_light_and_white_on_dark() {
        assert_eq!(FigureStyle::text_on(Rgb(0, 0, 0)), Rgb(255, 255, 255));
        assert_eq!(FigureStyle::text_on(Rgb(250, 240, 200)), Rgb(0, 0, 0));
        assert_eq!(
            FigureStyle::text_on(Rgb(0x00, 0x72, 0xb2)),
            Rgb(255, 255, 255)
        );
    }
}
