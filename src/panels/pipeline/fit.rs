//! The pipeline figure fitted to its canvas: the layout for the canvas's width (and, in projector
//! mode, for the screen below the step's title), the legend's lines and the token names' step. The
//! layout itself is `super::figure`; the drawing is `super::view`.

use web_sys::HtmlCanvasElement;

use super::figure::{layout, layout_within, token_name_row_px, FigureLayout};
use super::legend;
use crate::math::pipeline::{Pipeline, STAGES};
use crate::model::figure_style::FigureStyle;
use crate::model::plot::{label_step, thinned_caption};
use crate::model::present::break_pieces;
use crate::web::draw::heatmap::fit;
use crate::web::error::WebError;
use crate::web::surface;

/// The legend below the stages, with what it says about thinned token names.
pub(super) fn legend_text(p: &Pipeline, caption: Option<&str>) -> String {
    match caption {
        Some(caption) => crate::message!(
            "figure-pipeline-legend-thinned",
            legend = legend(p),
            thinned = caption,
        ),
        None => legend(p),
    }
}

/// The token names' step beside a band of `band_height` px for `n` rows, at the style's type.
pub(super) fn token_step(n: usize, band_height: f64, style: &FigureStyle) -> usize {
    label_step(n, band_height, token_name_row_px(style.tick_px / 13.0))
}

/// The smallest type a room reads a figure's labels at, in CSS pixels.
const ROOM_TICK_CSS_PX: f64 = 18.0;

/// [`fit_figure`] in the page's style, except in projector mode where a figure still taller than
/// the screen below its title (its rows already at their shortest) takes smaller type, never below
/// a laptop's: its nine stages then need fewer bands. There the type also shrinks, not below
/// [`ROOM_TICK_CSS_PX`], while rows too short for their names leave some tokens unnamed (a long
/// sentence then has its names thinned at a room's type). Returns the style it is drawn in.
pub(super) fn fit_figure_in_room(
    canvas: &HtmlCanvasElement,
    p: &Pipeline,
    style: &FigureStyle,
) -> Result<(FigureLayout, Vec<String>, usize, FigureStyle), WebError> {
    // In projector mode the whole figure fits the screen below the panel's title and takeaway
    // (its rows shorten for it); elsewhere it grows down as its bands need. The room is the same
    // for every trial: what stands above the canvas does not change with its height.
    let room = if style.look.projector {
        room_for_figure(canvas)
    } else {
        None
    };
    let laptop = FigureStyle::for_look(crate::model::figure_style::FigureLook {
        projector: false,
        page_px: 0,
        ..style.look
    });
    let mut trial = style.clone();
    loop {
        let (layout, legend, step) = fit_figure(canvas, p, &trial, room)?;
        let Some(room) = room else {
            return Ok((layout, legend, step, trial));
        };
        let drawn_width = surface::fit(canvas)?.0.max(1.0);
        let css_width = canvas.get_bounding_client_rect().width().max(1.0);
        let to_css = css_width / drawn_width;
        let fits = layout.height * to_css <= room;
        let tick_css = trial.tick_px * to_css;
        // Rows unnamed are worth smaller type down to a room's, not below it.
        let names_wanted = step > 1 && tick_css > ROOM_TICK_CSS_PX + 0.5;
        if (fits && !names_wanted) || trial.label_px <= laptop.label_px {
            return Ok((layout, legend, step, trial));
        }
        // Too tall: a tenth smaller; fitting with rows unnamed: straight to a room's type, or a
        // tenth smaller where that is larger.
        let factor = if fits {
            (ROOM_TICK_CSS_PX / tick_css).max(0.9)
        } else {
            0.9
        };
        for (px, floor) in [
            (&mut trial.tick_px, laptop.tick_px),
            (&mut trial.label_px, laptop.label_px),
            (&mut trial.title_px, laptop.title_px),
            (&mut trial.legend_px, laptop.legend_px),
        ] {
            *px = (*px * factor).max(floor);
        }
    }
}

/// The height a panel's main figure has on screen below the sticky bar, its panel's title and
/// whatever stands above it (what `www/layout.css` gives a main figure).
fn room_for_figure(canvas: &HtmlCanvasElement) -> Option<f64> {
    let window = web_sys::window()?;
    let view = window.inner_height().ok()?.as_f64()?;
    let section = canvas.closest("section.panel").ok()??;
    let above = canvas.get_bounding_client_rect().top() - section.get_bounding_client_rect().top();
    Some(view - crate::web::layout::sticky_height() - above - 2.0 * crate::web::layout::GAP - 2.0)
}

/// Lays the figure out for the canvas's width and makes the canvas as tall as the layout needs
/// (its aspect ratio, set here, overrides the stylesheet's: a figure that stacks its stages grows
/// down instead of squashing them) and at least `min_width` wide (a narrower panel scrolls it
/// sideways). Returns the layout, the legend's lines and the token names' step.
fn fit_figure(
    canvas: &HtmlCanvasElement,
    p: &Pipeline,
    style: &FigureStyle,
    room: Option<f64>,
) -> Result<(FigureLayout, Vec<String>, usize), WebError> {
    let shapes = STAGES.map(|s| p.shape(s));
    let scale = style.label_px / 15.0;
    let canvas_style = canvas.style();
    canvas_style.set_property("width", "100%")?;
    let plan = |width: f64| -> Result<(FigureLayout, Vec<String>, usize), WebError> {
        let fitted = |lines: usize| match room {
            // The layout is in the canvas's drawing units, the room in CSS pixels.
            Some(room) => {
                let css_width = canvas.get_bounding_client_rect().width().max(1.0);
                layout_within(width, &shapes, scale, lines, room * width / css_width)
            }
            None => layout(width, &shapes, scale, lines),
        };
        let lay = fitted(1);
        // One step for every band, so that the legend's word about it is true of each.
        let step = lay
            .bands
            .iter()
            .map(|b| token_step(p.n(), lay.rects[b.start].height(), style))
            .max()
            .unwrap_or(1);
        let caption = thinned_caption(step, &crate::message!("label-noun-token"));
        let context = surface::context(canvas)?;
        context.set_font(&format!("{}px {}", style.tick_px, style.font));
        let lines = wrap_words(&context, &legend_text(p, caption.as_deref()), width - 24.0);
        Ok((fitted(lines.len()), lines, step))
    };
    let (mut width, _) = surface::fit(canvas)?;
    let mut planned = plan(width)?;
    // The width can change once: the minimum width set here may widen the canvas.
    for _ in 0..3 {
        let lay = &planned.0;
        fit::set_min_width(canvas, lay.min_width);
        let aspect = format!("{} / {}", width.round(), lay.height.round());
        if canvas_style.get_property_value("--aspect")? != aspect {
            canvas_style.set_property_with_priority("--aspect", &aspect, "important")?;
        }
        let (fitted, _) = surface::fit(canvas)?;
        if (fitted - width).abs() < 1.0 {
            break;
        }
        width = fitted;
        planned = plan(width)?;
    }
    Ok(planned)
}

/// `text` cut at spaces into lines no wider than `width` at the context's font (the last line keeps
/// whatever is left; `fill_text_with_max_width` narrows it if it must).
fn wrap_words(context: &web_sys::CanvasRenderingContext2d, text: &str, width: f64) -> Vec<String> {
    let fits = |line: &str| {
        context
            .measure_text(line)
            .map_or(true, |m| m.width() <= width)
    };
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (glue, word) in break_pieces(text) {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line}{glue}{word}")
        };
        if line.is_empty() || fits(&candidate) {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
