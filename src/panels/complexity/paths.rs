//! The complexity panel's second canvas: the chapter's figure "Comparing CNN (padding tokens are
//! omitted), RNN, and self-attention architectures", drawn live for the current n (at most
//! [`MAX_DRAWN`] positions) and kernel k. The CNN is stacked until one unit sees both ends, the
//! units on its paths from the two ends highlighted; the RNN is a chain, the path from the first
//! input to the last hidden state highlighted; self-attention connects every pair in one layer, the
//! edge from the first input to the last output highlighted. Each is labelled with its maximum
//! path length (2D context on the canvas); the labels that state numbers come from the panel's
//! numbers (`super`).
//!
//! [`MAX_DRAWN`]: super::MAX_DRAWN

use crate::web::surface;
use std::f64::consts::TAU;

use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::{cnn_path_label, cnn_title, drawn_positions, paths_caption, rnn_path_label};
use crate::math::complexity::{centred_window, cnn_connecting_cone, cnn_layers_to_connect};
use crate::model::figure_style::FigureStyle;
use crate::web::error::WebError;

/// The colours and type of the diagrams, from the page's figure style.
struct Pen {
    edge: String,
    node: String,
    text: String,
    /// The accents of the CNN, the RNN and self-attention (their curves' colours on the chart).
    accents: [String; 3],
    caption_font: String,
    title_font: String,
    value_font: String,
    /// Type size, for the bands above and below the diagrams.
    px: f64,
}

impl Pen {
    fn new(style: &FigureStyle) -> Self {
        let px = style.tick_px;
        let font = |weight: &str, size: f64| format!("{weight}{size}px {}", style.font);
        Pen {
            edge: style.muted.css_alpha(0.35),
            node: style.muted.css(),
            text: style.ink.css(),
            accents: [2, 0, 4].map(|k| style.series(k).css()),
            caption_font: font("", px + 1.0),
            title_font: font("bold ", style.label_px),
            value_font: font("bold ", px + 1.0),
            px,
        }
    }

    /// Heights of the caption band at the top and the label band at the bottom.
    fn bands(&self) -> (f64, f64) {
        (4.5 * self.px, 4.0 * self.px)
    }
}

/// The three diagrams side by side, for the current n and k.
pub(super) fn draw_paths(
    canvas: &HtmlCanvasElement,
    n: usize,
    k: usize,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let context = surface::context(canvas)?;
    let (w, h) = surface::size(canvas);
    let pen = Pen::new(style);
    context.set_fill_style_str(&style.background.css());
    context.fill_rect(0.0, 0.0, w, h);
    let m = drawn_positions(n);
    context.set_fill_style_str(&pen.text);
    context.set_font(&pen.caption_font);
    context.set_text_align("center");
    context.set_text_baseline("alphabetic");
    // On a narrow canvas with large type (a phone, a projector) the short caption replaces the
    // long one rather than being cut.
    let caption = fit_first(
        &context,
        &[
            paths_caption(n),
            crate::message!("figure-complexity-diagram-drawn", drawn = m, n = n),
        ],
        w - 8.0,
    );
    context.fill_text(&caption, w / 2.0, 1.4 * pen.px)?;
    let (top, bottom) = pen.bands();
    let column = w / 3.0;
    let frames = [0.0, column, 2.0 * column].map(|left| Frame {
        left: left + 16.0,
        right: left + column - 16.0,
        top,
        bottom: h - bottom,
    });
    let on = |frame| Diagram {
        context: &context,
        pen: &pen,
        frame,
    };
    draw_cnn(on(&frames[0]), m, k)?;
    draw_rnn(on(&frames[1]), m)?;
    draw_attention(on(&frames[2]), m)?;
    context.set_text_align("start");
    Ok(())
}

/// One diagram: where it is drawn, with what, in which part of the canvas.
#[derive(Clone, Copy)]
struct Diagram<'a> {
    context: &'a CanvasRenderingContext2d,
    pen: &'a Pen,
    frame: &'a Frame,
}

impl Pen {
    /// A node's colour: the diagram's `accent` when it is on the path, the nodes' colour if not.
    fn on_path_if<'a>(&'a self, on_path: bool, accent: &'a str) -> &'a str {
        if on_path {
            accent
        } else {
            &self.node
        }
    }
}

/// The area one diagram fills.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Frame {
    /// The frame's middle band, at most `half` above and below its centre line: never taller than
    /// the frame, since on a small canvas the diagram would cross its labels.
    fn centred(&self, half: f64) -> Frame {
        let middle = (self.top + self.bottom) / 2.0;
        let half = ((self.bottom - self.top) / 2.0).min(half);
        Frame {
            top: middle - half,
            bottom: middle + half,
            ..*self
        }
    }

    /// Where position t of m is in a diagram of two rows (row 0 below), in the frame's middle
    /// band of at most `half` ([`Frame::centred`]).
    fn two_rows(&self, half: f64, m: usize) -> impl Fn(usize, usize) -> (f64, f64) {
        let inner = self.centred(half);
        move |row, t| (inner.x(t, m), inner.y(row, 2))
    }

    /// x of position t of m.
    fn x(&self, t: usize, m: usize) -> f64 {
        if m <= 1 {
            return (self.left + self.right) / 2.0;
        }
        self.left + (self.right - self.left) * t as f64 / (m - 1) as f64
    }

    /// y of row r of `rows` (row 0 at the bottom).
    fn y(&self, r: usize, rows: usize) -> f64 {
        if rows <= 1 {
            return self.bottom;
        }
        self.bottom - (self.bottom - self.top) * r as f64 / (rows - 1) as f64
    }

    fn centre(&self) -> f64 {
        (self.left + self.right) / 2.0
    }

    /// The title above the diagram (`titles`: it and a shorter form), and "maximum path length"
    /// with its value below it.
    fn labels(
        &self,
        context: &CanvasRenderingContext2d,
        pen: &Pen,
        (title, short_title): (&str, &str),
        path: &str,
        colour: &str,
    ) -> Result<(), WebError> {
        let room = self.right - self.left + 24.0;
        // Each label has shorter forms that say the same, tried before any text is cut: the
        // title without "kernel" (or "Attention"), "longest path", the path's number without its
        // breakdown.
        let short = |text: &str| {
            let end = [" (", "（"]
                .iter()
                .filter_map(|remark| text.find(remark))
                .min()
                .unwrap_or(text.len());
            text[..end].to_string()
        };
        context.set_font(&pen.title_font);
        context.set_fill_style_str(colour);
        let titles = [
            title.to_string(),
            title.replace("kernel ", ""),
            short_title.to_string(),
        ];
        let title = fit_first(context, &titles, room);
        context.fill_text(&title, self.centre(), self.top - 1.2 * pen.px)?;
        context.set_font(&pen.caption_font);
        context.set_fill_style_str(&pen.text);
        let below = self.bottom + 1.8 * pen.px;
        let names = [
            crate::message!("figure-complexity-diagram-maximum-path-length"),
            crate::message!("figure-complexity-diagram-longest-path"),
        ];
        let name = fit_first(context, &names, room);
        context.fill_text(&name, self.centre(), below)?;
        context.set_font(&pen.value_font);
        let path = fit_first(context, &[path.to_string(), short(path)], room);
        context.fill_text(&path, self.centre(), below + 1.4 * pen.px)?;
        Ok(())
    }
}

/// The first of `texts` (longest first) that fits in `room` at the context's font; the last one
/// cut with an ellipsis if none does.
fn fit_first(context: &CanvasRenderingContext2d, texts: &[String], room: f64) -> String {
    let fits = |t: &str| context.measure_text(t).map_or(true, |m| m.width() <= room);
    texts.iter().find(|t| fits(t)).cloned().unwrap_or_else(|| {
        let last = texts.last().map_or("", String::as_str);
        crate::web::draw::ellipsize(context, last, room)
    })
}

fn line(context: &CanvasRenderingContext2d, from: (f64, f64), to: (f64, f64)) {
    context.begin_path();
    context.move_to(from.0, from.1);
    context.line_to(to.0, to.1);
    context.stroke();
}

fn node(
    context: &CanvasRenderingContext2d,
    at: (f64, f64),
    radius: f64,
    colour: &str,
) -> Result<(), WebError> {
    context.set_fill_style_str(colour);
    context.begin_path();
    context.arc(at.0, at.1, radius, 0.0, TAU)?;
    context.fill();
    Ok(())
}

/// Stacked centred convolutions of kernel k until one unit sees both ends (one layer when k = 1,
/// which never connects two positions).
fn draw_cnn(diagram: Diagram, m: usize, k: usize) -> Result<(), WebError> {
    let Diagram {
        context,
        pen,
        frame,
    } = diagram;
    let accent = &pen.accents[0];
    let cone = cnn_connecting_cone(m, k);
    let layers = cnn_layers_to_connect(m, k).map_or(1, |l| l.max(1));
    let rows = layers + 1;
    let (left, right) = centred_window(k);
    let in_cone = |row: usize, t: usize| {
        cone.as_ref()
            .and_then(|c| c.get(row))
            .is_some_and(|&(first, last)| (first..=last).contains(&t))
    };
    let at = |row: usize, t: usize| (frame.x(t, m), frame.y(row, rows));
    for highlighted in [false, true] {
        if highlighted {
            stroke(context, 2.0, accent);
        } else {
            stroke(context, 1.0, &pen.edge);
        }
        for row in 1..rows {
            for t in 0..m {
                let first = t.saturating_sub(left);
                let last = (t + right).min(m - 1);
                for s in first..=last {
                    if (in_cone(row, t) && in_cone(row - 1, s)) == highlighted {
                        line(context, at(row, t), at(row - 1, s));
                    }
                }
            }
        }
    }
    let radius = if rows > 10 { 2.5 } else { 4.0 };
    for row in 0..rows {
        for t in 0..m {
            node(
                context,
                at(row, t),
                radius,
                pen.on_path_if(in_cone(row, t), accent),
            )?;
        }
    }
    let title = cnn_title(k);
    frame.labels(
        context,
        pen,
        (
            title.as_str(),
            title.replace("Self-attention", "Attention").as_str(),
        ),
        &cnn_path_label(m, k),
        accent,
    )
}

/// The width and colour of the lines drawn next.
fn stroke(context: &CanvasRenderingContext2d, width: f64, colour: &str) {
    context.set_line_width(width);
    context.set_stroke_style_str(colour);
}

/// Inputs below, hidden states in a chain above.
fn draw_rnn(diagram: Diagram, m: usize) -> Result<(), WebError> {
    let Diagram {
        context,
        pen,
        frame,
    } = diagram;
    let accent = &pen.accents[1];
    let at = frame.two_rows(40.0, m);
    // Every edge is on the path from x_0 to h_{m−1} except the inputs after the first.
    stroke(context, 1.0, &pen.edge);
    for t in 1..m {
        line(context, at(0, t), at(1, t));
    }
    stroke(context, 2.0, accent);
    line(context, at(0, 0), at(1, 0));
    for t in 1..m {
        line(context, at(1, t - 1), at(1, t));
    }
    for t in 0..m {
        node(context, at(0, t), 4.0, pen.on_path_if(t == 0, accent))?;
        node(context, at(1, t), 4.0, accent)?;
    }
    frame.labels(
        context,
        pen,
        (
            crate::message!("figure-complexity-diagram-rnn").as_str(),
            crate::message!("figure-complexity-diagram-rnn-short").as_str(),
        ),
        &rnn_path_label(m),
        accent,
    )
}

/// Inputs below, outputs above, every output connected to every input.
fn draw_attention(diagram: Diagram, m: usize) -> Result<(), WebError> {
    let Diagram {
        context,
        pen,
        frame,
    } = diagram;
    let accent = &pen.accents[2];
    let at = frame.two_rows(70.0, m);
    stroke(context, 1.0, &pen.edge);
    for t in 0..m {
        for s in 0..m {
            line(context, at(0, s), at(1, t));
        }
    }
    stroke(context, 2.5, accent);
    line(context, at(0, 0), at(1, m - 1));
    for t in 0..m {
        node(context, at(0, t), 4.0, pen.on_path_if(t == 0, accent))?;
        node(context, at(1, t), 4.0, pen.on_path_if(t == m - 1, accent))?;
    }
    let title = crate::message!("figure-complexity-diagram-self-attention");
    let short = crate::message!("figure-complexity-diagram-self-attention-short");
    frame.labels(context, pen, (title.as_str(), short.as_str()), "1", accent)
}
