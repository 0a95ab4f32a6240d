//! Downloads: a canvas as PNG, a matrix as CSV (`model::export`), the curves as SVG. The browser
//! saves a Blob through a temporary `<a download>`; nothing leaves the page.

use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use super::dom;
use super::error::WebError;
use super::panel::{Ctx, Panel};
use crate::model::params::Params;

/// Saves `text` as a file named `filename` with the given MIME type.
pub fn download_text(filename: &str, mime: &str, text: &str) -> Result<(), WebError> {
    let parts = js_sys::Array::of1(&text.into());
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let result = click_link(filename, &url);
    Url::revoke_object_url(&url)?;
    result
}

/// Saves what a canvas shows as a PNG file.
pub fn download_canvas_png(canvas: &HtmlCanvasElement, filename: &str) -> Result<(), WebError> {
    let url = canvas.to_data_url_with_type("image/png")?;
    click_link(filename, &url)
}

fn click_link(filename: &str, href: &str) -> Result<(), WebError> {
    let document = dom::document()?;
    let link: HtmlAnchorElement = document
        .create_element("a")?
        .dyn_into()
        .map_err(|_| WebError::Js("could not create a link".into()))?;
    link.set_href(href);
    link.set_download(filename);
    link.set_hidden(true);
    let body = document
        .body()
        .ok_or_else(|| WebError::Js("the page has no body".into()))?;
    body.append_child(&link)?;
    link.click();
    link.remove();
    Ok(())
}

/// A file name that says what is in it: `pe-lab-P-d32-n60-base10000.csv`.
pub fn file_name(what: &str, parameters: &[(&str, String)], extension: &str) -> String {
    let mut name = format!("pe-lab-{what}");
    for (key, value) in parameters {
        name.push('-');
        name.push_str(key);
        name.extend(
            value
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '.'),
        );
    }
    format!("{name}.{extension}")
}

/// The parameters that name an exported file.
fn view_parameters(p: &Params) -> Vec<(&'static str, String)> {
    vec![
        ("d", p.d.to_string()),
        ("n", p.n.to_string()),
        ("base", crate::model::params::format_base(p.base)),
    ]
}

/// Saves a canvas of the page (by its id) as PNG, named after the view.
pub fn png(canvas_id: &str, params: &Params) -> Result<(), WebError> {
    let canvas: HtmlCanvasElement = super::dom::element(canvas_id)?;
    let name = file_name(canvas_id, &view_parameters(params), "png");
    download_canvas_png(&canvas, &name)
}

/// Saves a panel's numbers as CSV (full float32 precision), once they are there (on WebGPU,
/// after a read-back).
pub fn csv(panel: &dyn Panel, ctx: &Ctx, params: &Params) -> Result<(), WebError> {
    let name = file_name(ctx.panel.spec().name, &view_parameters(params), "csv");
    if let Some(csv) = panel.csv(ctx) {
        wasm_bindgen_futures::spawn_local(async move {
            let result = csv
                .await
                .and_then(|text| download_text(&name, "text/csv", &text));
            super::scheduler::report(result);
        });
    }
    Ok(())
}

/// Saves a panel's figure as SVG.
pub fn svg(panel: &dyn Panel, ctx: &Ctx, params: &Params) -> Result<(), WebError> {
    let name = file_name(ctx.panel.spec().name, &view_parameters(params), "svg");
    match panel.svg(ctx) {
        Some(svg) => download_text(&name, "image/svg+xml", &svg?),
        None => Ok(()),
    }
}
