//! Downloads: a canvas as PNG, a matrix as CSV (`math::export`), the curves as SVG. The browser
//! saves a Blob through a temporary `<a download>`; nothing leaves the page.

use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use super::dom;
use super::error::WebError;

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
