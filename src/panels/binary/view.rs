//! Panel 5, the binary analogy: the bits of 0 … n−1 (lowest bit first, as the chapter prints
//! them) drawn like P, next to P, with the period of each bit (2^(k+1)) beside the period of each
//! column pair (2π·base^(2j/d)). P is the page's own heatmap of P (drawn by the GPU's render pass
//! on WebGPU, from the CPU's cells otherwise), copied and scaled.

use crate::model::inputs::Inputs;
use crate::web::surface;
use web_sys::HtmlCanvasElement;

use super::{bits_figure_aspect, compute, period_table, summary, BinaryStats, PeriodTable};
use crate::math::binary::{bit_count, bits};
use crate::math::colormap::diverging_rgba;
use crate::math::measures::bits_as_signs;
use crate::model::figure_style::FigureStyle;
use crate::model::plot::PixelRect;
use crate::web::backend::paint_waiting_heatmap;
use crate::web::dom;
use crate::web::draw::heatmap::{
    draw_encoding_axes, draw_heatmap_frame_without_bar, paint_cells, EncodingFigure, HeatmapAxes,
    RgbaImage,
};
use crate::web::error::WebError;
use crate::web::panels::view::View;
use crate::web::panels::Ctx;
use web_sys::HtmlElement;

pub fn render(ctx: &mut Ctx, dom: &BinaryDom) -> Result<BinaryStats, WebError> {
    let (n, d, base) = (ctx.params.n, ctx.params.d, ctx.params.base);

    let width = bit_count(n);
    // Off screen, the pictures wait (see `PanelsState::visible`); the table and numbers do not.
    if ctx.draw {
        lay_out_pair(dom, width, ctx.style)?;
        let signs = bits_as_signs(bits(n).view());
        let bits_canvas = &dom.bits;
        // Two values only, named in the text (0 blue, 1 red): no colour bar, and the bits are
        // numbered like any axis, level rather than slanted.
        let rect = draw_heatmap_frame_without_bar(
            bits_canvas,
            ctx.scratch,
            (n, width),
            &HeatmapAxes {
                x_desc: &crate::message!("figure-binary-bits-x"),
                y_desc: &crate::message!("figure-binary-bits-y"),
                value_range: (-1.0, 1.0),
                x_names: None,
                y_names: None,
            },
            ctx.style,
        )?;
        let signs = signs.as_slice().unwrap_or(&[]);
        paint_cells(
            bits_canvas,
            ctx.scratch,
            &RgbaImage {
                width,
                height: n,
                pixels: &diverging_rgba(signs, -1.0, 1.0),
            },
            rect,
        )?;
        write_digits(bits_canvas, rect, (n, width), signs, ctx.style)?;

        let p_canvas = &dom.p;
        // The same axes as the heatmap of P (1-based with `?index=1`).
        let rect = draw_encoding_axes(
            p_canvas,
            ctx.scratch,
            (n, d),
            ctx.params.first_position,
            ctx.style,
            EncodingFigure::Picture,
        )?;
        // P itself is already drawn above (by the GPU's render pass on WebGPU, from the CPU's cells
        // otherwise): its image is copied, scaled, rather than computed and coloured again. On the
        // CPU a frame leaves the heatmap's cells for later while the heatmap is off screen (a jump
        // from the curves to this panel): they are painted first, or the copy is blank.
        paint_waiting_heatmap(
            ctx.frame,
            ctx.heatmap_rect,
            ctx.encoding_canvas,
            ctx.scratch,
        )?;
        let source = ctx.encoding_canvas;
        let from = ctx.heatmap_rect;
        // The source rectangle is read in the source canvas's own (device) pixels.
        let [x0, y0, x1, y1] = surface::backing_rect(source, (from.x0, from.y0, from.x1, from.y1));
        let context = surface::context(p_canvas)?;
        context.set_image_smoothing_enabled(true);
        context.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
            source,
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            rect.x0,
            rect.y0,
            rect.width(),
            rect.height(),
        )?;
    }
    let stats = compute(n, d, base, ctx.backend.name())?;
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats, d, base));
    fill_table(&dom.table, &dom.pairs_table, &period_table(&stats, d, base))?;
    dom::text(
        &dom.summary,
        &summary(&stats, d, base, ctx.params.first_position),
    );
    Ok(stats)
}

/// Side by side, the bits and P share one height: each canvas gets a share of the row in
/// proportion to its width / height, and the bits canvas is as wide as its bits need (its
/// `--aspect`, from [`bits_figure_aspect`]). On a phone they stack, each as wide as the screen
/// allows: side by side the bits would be a sliver and P's cells too narrow to read.
fn lay_out_pair(dom: &BinaryDom, bits: usize, style: &FigureStyle) -> Result<(), WebError> {
    let phone = dom::window()?
        .match_media("(max-width: 640px)")?
        .is_some_and(|list| list.matches());
    let aspect = bits_figure_aspect(bits, style.label_px);
    // Stacked, the bits are as tall as P below them (a square), not a column the height of the
    // screen.
    let shown = if phone { aspect.max(1.0) } else { aspect };
    // Important, as the style sheet's reservations for the default view are (www/layout.css):
    // the figure's live proportions win over them.
    dom.bits
        .style()
        .set_property_with_priority("--aspect", &format!("{shown:.3}"), "important")?;
    let columns = if phone {
        "minmax(0, 1fr)".to_string()
    } else {
        format!("minmax(0, {aspect:.3}fr) minmax(0, 1fr)")
    };
    dom.pair
        .style()
        .set_property("grid-template-columns", &columns)?;
    Ok(())
}

/// Writes each bit's digit (0 or 1) into its cell where the cells are large enough to hold it
/// (the chapter prints the codes as digits: 0 → 000, 1 → 100, …).
fn write_digits(
    canvas: &HtmlCanvasElement,
    rect: PixelRect,
    (rows, columns): (usize, usize),
    signs: &[f32],
    style: &FigureStyle,
) -> Result<(), WebError> {
    let (cell_w, cell_h) = (
        rect.width() / columns.max(1) as f64,
        rect.height() / rows.max(1) as f64,
    );
    let px = (0.6 * cell_w.min(cell_h)).min(1.3 * style.label_px);
    // Below the size of tick labels a digit would be noise on the colours.
    if px < 0.8 * style.tick_px || signs.len() < rows * columns {
        return Ok(());
    }
    let context = surface::context(canvas)?;
    context.set_font(&format!("600 {px:.1}px {}", style.font));
    context.set_text_align("center");
    context.set_text_baseline("middle");
    // White reads on both ends of the diverging map (dark blue, dark red).
    context.set_fill_style_str("#ffffff");
    for row in 0..rows {
        for column in 0..columns {
            let digit = if signs[row * columns + column] > 0.0 {
                "1"
            } else {
                "0"
            };
            context.fill_text(
                digit,
                rect.x0 + (column as f64 + 0.5) * cell_w,
                rect.y0 + (row as f64 + 0.5) * cell_h,
            )?;
        }
    }
    Ok(())
}

/// The two tables' bodies: bit k, its period and the pair closest to it; pair j (columns 2j,
/// 2j+1) and its period, with a last row for the pairs left out.
fn fill_table(
    bits: &HtmlElement,
    pairs: &HtmlElement,
    table: &PeriodTable,
) -> Result<(), WebError> {
    let document = dom::document()?;
    let row = |cells: &[String]| -> Result<web_sys::Node, WebError> {
        let tr = document.create_element("tr")?;
        for cell in cells {
            let td = document.create_element("td")?;
            td.set_text_content(Some(cell));
            if cells.len() == 1 {
                td.set_attribute("colspan", "2")?;
            }
            tr.append_child(&td)?;
        }
        Ok(tr.into())
    };
    bits.set_inner_html("");
    pairs.set_inner_html("");
    for cells in &table.rows {
        let (bit, pair) = cells.split_at(3);
        if !bit[0].is_empty() {
            bits.append_child(&row(bit)?)?;
        }
        if !pair[0].is_empty() {
            pairs.append_child(&row(pair)?)?;
        }
    }
    if let Some(more) = &table.more {
        pairs.append_child(&row(std::slice::from_ref(more))?)?;
    }
    Ok(())
}

crate::element_table! {
    pub struct BinaryDom {
        bits: HtmlCanvasElement = "binary-bits",
        p: HtmlCanvasElement = "binary-p",
        table: HtmlElement = "binary-table",
        pairs_table: HtmlElement = "binary-pairs-table",
        summary: HtmlElement = "binary-summary",
        takeaway: HtmlElement = "binary-takeaway",
        pair: HtmlElement = "binary-pair",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<BinaryDom, BinaryStats> = View {
    elements: BinaryDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        let p = ctx.params;
        // The copy of P's heatmap follows every frame of P.
        Inputs::new()
            .with(p.n)
            .with(p.d)
            .with(p.base)
            .with(ctx.backend.name())
            .with(ctx.frame_id)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
