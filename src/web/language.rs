//! The chosen language's catalogs of computed sentences, read from the page that carries them
//! (a translated page, built by scripts/l10n/build-pages.mjs) and handed to `model::messages`.
//! The page's own catalog is written into the page; the training panel's is a file beside it,
//! which the page names and fetches with the training module (a reader who never trains does not
//! download it).

use super::dom;
use crate::model::messages::{install, Resource, Training};

/// The page's language, as `<html lang>` says (the head script sets it before the first paint).
fn page_language() -> String {
    dom::document()
        .ok()
        .and_then(|document| document.document_element())
        .and_then(|html| html.get_attribute("lang"))
        .unwrap_or_default()
}

/// Whether the page is the English one, whose static text states the default view: a translated
/// page's readouts written by a lazily loaded module are its module's.
pub fn page_is_english() -> bool {
    let language = page_language();
    language.is_empty() || language.starts_with("en")
}

/// Installs resource `R`'s catalog if this page carries one, in the language of `<html lang>`.
/// The English page carries none and stays as compiled. Returns the notice for a catalog that
/// does not parse (the page then stays in English).
pub fn install_page_catalog<R: Resource>() -> Option<String> {
    let element = dom::document().ok()?.get_element_by_id(R::ELEMENT_ID)?;
    install_catalog::<R>(&element.text_content().unwrap_or_default())
}

/// Installs `source`, resource `R`'s catalog in the page's language (one fetched by the caller).
/// Returns the notice for a catalog that does not parse (its sentences then stay in English).
pub fn install_catalog<R: Resource>(source: &str) -> Option<String> {
    install::<R>(&page_language(), source)
        .err()
        .map(|error| format!("{error}; showing English."))
}

/// Where a translated page keeps the training panel's catalog: the `src` of its
/// `<script type="text/x-fluent" id="messages-training">`, which a browser does not fetch by
/// itself (the type is not a script's). `None` on the English page.
pub fn training_catalog_address() -> Option<String> {
    dom::document()
        .ok()?
        .get_element_by_id(Training::ELEMENT_ID)?
        .get_attribute("src")
        .filter(|src| !src.is_empty())
}
