//! A heatmap's frame: the axes with their index or name labels, the colour bar's scale, the
//! caption that says which names are thinned, and the width the canvas keeps for its cells; the
//! cells themselves are painted by the caller into the rectangle the frame returns.

use plotters::coord::Shift;
use plotters::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::{
    axis, fit, paint_image, set_frame_colour, Frame, HeatmapAxes, BAR_AREA, DESC_FONT, LABEL_FONT,
};
use crate::model::figure_style::{FigureStyle, Rgb};
use crate::model::plot::{
    axis_noun, bar_label, fit_description, label_step, name_label, named_ticks, numbered_label,
    numbered_ticks, thinned_captions, PixelRect, NAME_CHARS,
};
use crate::web::draw::chart::{font, Axis};
use crate::web::error::{draw_error, WebError};
use crate::web::surface::{self, Plotting};

/// A part of the canvas plotters draws on.
type Area = DrawingArea<Plotting<'static>, Shift>;

fn rgb(colour: Rgb) -> RGBColor {
    RGBColor(colour.0, colour.1, colour.2)
}

/// The frame with the index labels counted from `first` (1: the Julia edition's numbering); names,
/// where given, are unchanged. Where drawing it gave the canvas a new minimum width (for readable
/// cells), it is drawn again at the canvas's new size, until the size holds: a first drawing on a
/// canvas far too small measures its cells from a squeezed plot, so one more pass can still fall
/// short (a few passes settle it; the cap keeps a figure that never settles from looping).
pub(super) fn draw_frame(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    shape: (usize, usize),
    frame: Frame,
    axes: &HeatmapAxes,
    first: usize,
    style: &FigureStyle,
) -> Result<PixelRect, WebError> {
    const MAX_PASSES: usize = 4;
    let figure = Figure {
        shape,
        axes,
        first,
        style,
    };
    let mut rect = draw_frame_once(canvas, scratch, frame, &figure)?;
    for _ in 1..MAX_PASSES {
        if !surface::out_of_date(canvas) {
            break;
        }
        rect = draw_frame_once(canvas, scratch, frame, &figure)?;
    }
    Ok(rect)
}

/// What a frame is drawn for: the matrix's shape (rows, columns), what its axes say, the number
/// of its first index and the look.
struct Figure<'a> {
    shape: (usize, usize),
    axes: &'a HeatmapAxes<'a>,
    first: usize,
    style: &'a FigureStyle,
}

impl Figure<'_> {
    /// Whether either axis is labelled with names rather than indices.
    fn named(&self) -> bool {
        self.axes.x_names.is_some() || self.axes.y_names.is_some()
    }
}

/// The frame's sizes in pixels. Every size was chosen for 15 px labels; projector type scales
/// them.
struct Sizes {
    scale: f64,
    desc_px: f64,
    /// The room of one label down the y axis (~17 px).
    line: f64,
    /// The room below the plot for the x labels, and left of it for the y labels.
    x_area: u32,
    y_area: u32,
    /// The room under the figure for the caption of thinned names (0: no names).
    caption_room: u32,
}

impl Sizes {
    fn of(figure: &Figure) -> Sizes {
        let (style, axes) = (figure.style, figure.axes);
        let scale = style.label_px / f64::from(LABEL_FONT.1);
        let px = |v: f64| (v * scale).round() as u32;
        // Names take the room they need (slanted names on x: about 0.7 of their length, plus the
        // description); indices keep the fixed areas. A line of a thinned axis's caption goes
        // below.
        let names_width = |names: &[String]| {
            let chars = names
                .iter()
                .map(|n| n.chars().count().min(NAME_CHARS))
                .max()
                .unwrap_or(1);
            chars as f64 * 8.0 * scale + 4.0
        };
        let x_area = axes.x_names.map_or(px(52.0), |names| {
            ((names_width(names) * 0.7) as u32 + px(40.0)).clamp(px(52.0), px(140.0))
        });
        let y_area = axes.y_names.map_or(px(64.0), |names| {
            (names_width(names) as u32 + px(40.0)).clamp(px(64.0), px(150.0))
        });
        let caption_room = if figure.named() {
            (style.tick_px * 1.4).ceil() as u32
        } else {
            0
        };
        Sizes {
            scale,
            desc_px: f64::from(DESC_FONT.1) * scale,
            line: 17.0 * scale,
            x_area,
            y_area,
            caption_room,
        }
    }

    /// `v` pixels of 15 px type at the frame's type.
    fn px(&self, v: f64) -> u32 {
        (v * self.scale).round() as u32
    }

    /// The plot's width and height in an area of `(width, height)`, the label areas and margins
    /// taken off.
    fn plot_room(&self, (width, height): (u32, u32)) -> (f64, f64) {
        (
            f64::from(width.saturating_sub(self.y_area + 24)),
            f64::from(height.saturating_sub(self.x_area + 24 + self.caption_room)),
        )
    }
}

/// The labelled cells of both axes, and how the names are thinned.
struct Ticks {
    x: Vec<f64>,
    y: Vec<f64>,
    /// Every k-th name drawn, across and down (1: every name is, or the axis has indices).
    steps: (usize, usize),
}

impl Ticks {
    /// Names: every k-th, k as small as lets a name keep the height of its type and a gap
    /// (~16 px across when slanted, ~17 px down); the caption says so. Indices: round numbers, at
    /// most 12 across (a label of k digits needs ~9k + 14 px) and 10 down, fewer on a small
    /// canvas.
    fn of(figure: &Figure, (plot_width, plot_height): (f64, f64), sizes: &Sizes) -> Ticks {
        let ((rows, columns), axes, first) = (figure.shape, figure.axes, figure.first);
        let scale = sizes.scale;
        let (x_step, y_step) = (
            label_step(columns, plot_width, 16.0 * scale),
            label_step(rows, plot_height, sizes.line),
        );
        let index_width = ((columns.max(1) + first).to_string().len() as f64 * 9.0 + 14.0) * scale;
        // Named axes: the named cells, thinned to the step (`dropped`: a name was left out).
        let (x, x_dropped) = match axes.x_names {
            Some(names) => named_ticks(names, x_step),
            None => (
                numbered_ticks(
                    columns,
                    first,
                    ((plot_width / index_width) as usize).clamp(2, 12),
                ),
                false,
            ),
        };
        let (y, y_dropped) = match axes.y_names {
            Some(names) => named_ticks(names, y_step),
            None => (
                numbered_ticks(
                    rows,
                    first,
                    ((plot_height / sizes.line) as usize).clamp(2, 10),
                ),
                false,
            ),
        };
        Ticks {
            x,
            y,
            steps: (
                if x_dropped { x_step } else { 1 },
                if y_dropped { y_step } else { 1 },
            ),
        }
    }
}

fn draw_frame_once(
    canvas: &HtmlCanvasElement,
    scratch: &HtmlCanvasElement,
    frame: Frame,
    figure: &Figure,
) -> Result<PixelRect, WebError> {
    let (style, axes) = (figure.style, figure.axes);
    let sizes = Sizes::of(figure);
    let backend = surface::plotting(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&rgb(style.background)).map_err(draw_error)?;
    let (width, height) = root.dim_in_pixel();
    let bar_area_width = if frame.bar.is_some() {
        sizes.px(f64::from(BAR_AREA))
    } else {
        0
    };
    let (main, bar_area) = root.split_horizontally(width.saturating_sub(bar_area_width));
    let ticks = Ticks::of(figure, sizes.plot_room(main.dim_in_pixel()), &sizes);
    let image_rect = draw_axes(&main, figure, &ticks, &sizes)?;
    let bar_rect = frame
        .bar
        .map(|_| draw_bar_scale(&bar_area, figure, &sizes))
        .transpose()?;
    root.present().map_err(draw_error)?;
    set_frame_colour(canvas, style);
    if let (Some(bar), Some(rect)) = (frame.bar, bar_rect) {
        paint_image(canvas, scratch, bar, rect)?;
    }
    let context = surface::context(canvas)?;
    if let Some(names) = axes.x_names {
        axis::draw_slanted_names(&context, names, &ticks.x, figure.shape.1, image_rect, style)?;
    }
    // Names that are thinned are said to be, under the figure (never dropped silently).
    let caption = thinned_captions(&[
        (ticks.steps.0, &axis_noun(axes.x_desc)),
        (ticks.steps.1, &axis_noun(axes.y_desc)),
    ]);
    if let Some(caption) = &caption {
        write_caption(&context, caption, style, (width, height))?;
    }
    fit::record(
        canvas,
        image_rect,
        figure.shape,
        ticks.steps,
        caption.as_deref(),
    );
    keep_width(canvas, frame, figure, image_rect, (width, height), &sizes);
    Ok(image_rect)
}

/// The axes of the cells, their labels and descriptions, drawn by plotters on `main`; returns the
/// pixel rectangle inside them, where the cell image goes.
fn draw_axes(
    main: &Area,
    figure: &Figure,
    ticks: &Ticks,
    sizes: &Sizes,
) -> Result<PixelRect, WebError> {
    let (style, axes, first) = (figure.style, figure.axes, figure.first);
    let (rows, columns) = figure.shape;
    let (columns_f, rows_f) = (columns as f64, rows as f64);
    // Cell k spans [k − ½, k + ½), so integer ticks sit at cell centres. Row 0 at the top, as in
    // the chapter's figure: the y range runs downwards.
    let mut chart = ChartBuilder::on(main)
        .margin(12)
        .margin_bottom(12 + sizes.caption_room)
        .x_label_area_size(sizes.x_area)
        .y_label_area_size(sizes.y_area)
        .build_cartesian_2d(
            Axis::ticked(-0.5..columns_f - 0.5, ticks.x.clone()),
            Axis::ticked(rows_f - 0.5..-0.5, ticks.y.clone()),
        )
        .map_err(draw_error)?;
    let x_formatter = |v: &f64| match axes.x_names {
        // Slanted names are drawn after plotters (`axis::draw_slanted_names`).
        Some(_) => String::new(),
        None => numbered_label(*v, first),
    };
    let y_formatter = |v: &f64| match axes.y_names {
        Some(names) => name_label(names, *v),
        None => numbered_label(*v, first),
    };
    let (main_width, main_height) = main.dim_in_pixel();
    chart
        .configure_mesh()
        .disable_mesh()
        .axis_style(rgb(style.frame).stroke_width(style.axis_px as u32))
        .x_desc(fit_description(
            axes.x_desc,
            f64::from(main_width.saturating_sub(sizes.y_area)),
            sizes.desc_px,
        ))
        .y_desc(fit_description(
            axes.y_desc,
            f64::from(main_height.saturating_sub(sizes.x_area + 12)),
            sizes.desc_px,
        ))
        .label_style(font(style, style.label_px).color(&rgb(style.ink)))
        .axis_desc_style(font(style, sizes.desc_px).color(&rgb(style.ink)))
        .x_labels(ticks.x.len())
        .y_labels(ticks.y.len())
        .x_label_formatter(&x_formatter)
        .y_label_formatter(&y_formatter)
        .draw()
        .map_err(draw_error)?;
    Ok(pixel_rect(chart.plotting_area().get_pixel_range()))
}

/// The colour bar's value axis, drawn by plotters on `bar_area`; returns where the bar's image
/// goes.
fn draw_bar_scale(bar_area: &Area, figure: &Figure, sizes: &Sizes) -> Result<PixelRect, WebError> {
    let style = figure.style;
    let (low, high) = figure.axes.value_range;
    let mut bar_chart = ChartBuilder::on(bar_area)
        .margin_top(12)
        .margin_bottom(64 + sizes.caption_room)
        .margin_right(8)
        .y_label_area_size(sizes.px(52.0))
        .build_cartesian_2d(
            Axis::linear(0f64..1f64),
            Axis::linear((low as f64)..(high as f64)),
        )
        .map_err(draw_error)?;
    bar_chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .axis_style(rgb(style.frame).stroke_width(style.axis_px as u32))
        .label_style(font(style, style.label_px).color(&rgb(style.ink)))
        .y_labels(5)
        .y_label_formatter(&|v| bar_label(*v, f64::from(high - low)))
        .draw()
        .map_err(draw_error)?;
    Ok(pixel_rect(bar_chart.plotting_area().get_pixel_range()))
}

/// The caption of thinned names, along the bottom of a canvas of `(width, height)`.
fn write_caption(
    context: &CanvasRenderingContext2d,
    caption: &str,
    style: &FigureStyle,
    (width, height): (u32, u32),
) -> Result<(), WebError> {
    context.set_font(&format!("{}px {}", style.tick_px, style.font));
    context.set_fill_style_str(&style.muted.css());
    context.set_text_align("left");
    context.set_text_baseline("bottom");
    context.fill_text_with_max_width(
        caption,
        8.0,
        f64::from(height) - 4.0,
        f64::from(width) - 16.0,
    )?;
    Ok(())
}

/// The width the canvas keeps: enough for readable cells (a table), or none (a picture).
fn keep_width(
    canvas: &HtmlCanvasElement,
    frame: Frame,
    figure: &Figure,
    image_rect: PixelRect,
    size: (u32, u32),
    sizes: &Sizes,
) {
    let named_cell = if figure.named() { sizes.line } else { 0.0 };
    if frame.readable_cells {
        fit::keep_cells_readable(
            canvas,
            image_rect,
            figure.shape,
            size,
            (named_cell, figure.axes.x_names.is_some()),
        );
    } else {
        fit::set_min_width(canvas, 0.0);
    }
}

fn pixel_rect((x, y): (std::ops::Range<i32>, std::ops::Range<i32>)) -> PixelRect {
    PixelRect {
        x0: x.start as f64,
        y0: y.start as f64,
        x1: x.end as f64,
        y1: y.end as f64,
    }
}
