//! The heatmaps' axes: slanted column names (the ticks at the cells' centres are
//! `draw::chart::Axis::ticked`).

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
