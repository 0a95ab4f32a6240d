//! The chosen language's catalogs of computed sentences, read from the page that carries them
//! (a translated page, built by scripts/l10n/build-pages.mjs) and handed to `model::messages`.

use super::dom;
use crate::model::messages::{install, Resource};

/// Installs resource `R`'s catalog if this page carries one, in the language of `<html lang>`.
/// The English page carries none and stays as compiled. Returns the notice for a catalog that
/// does not parse (the page then stays in English).
pub fn install_page_catalog<R: Resource>() -> Option<String> {
    let document = dom::document().ok()?;
    let element = document.get_element_by_id(R::ELEMENT_ID)?;
    let language = document
        .document_element()
        .and_then(|html| html.get_attribute("lang"))
        .unwrap_or_default();
    let source = element.text_content().unwrap_or_default();
    install::<R>(&language, &source)
        .err()
        .map(|error| format!("{error}; showing English."))
}
