//! The panels of the page, a folder each (`src/panels/<folder>/`), declared here from the one list
//! of panels ([`crate::for_each_panel!`]): a panel's folder holds its numbers, settings, takeaway and
//! read-out (native, tested without a browser), its view (`view.rs`, the browser only, with
//! `pub fn mount`) and its markup (`section.html`, put into the page by
//! `scripts/page/assemble.mjs`). The panels' messages are in the catalogs (`locales/`), where a
//! translator finds them together.
//!
//! Dependencies run one way: a folder's numbers use `math` and `model`'s shared parts (the panel
//! settings, formatting, figure layouts); its view uses `web`'s kit (the DOM, the canvases, the
//! generic [`View`](crate::web::panels::view::View)); nothing below imports a panel's folder but
//! the list.
//!
//! Every panel is whole here but the training panel, whose folder hands `mount` on from
//! `web::panels::train`: its code is built into a wasm module of its own (`web::train_module`),
//! loaded when the panel is first used. Checks across several panels' takeaways are in `tests.rs`.

macro_rules! panel_modules {
    ($({ $variant:ident, $name:literal, $folder:ident, $($row:tt)* })*) => {
        $(pub mod $folder;)*
    };
}

crate::for_each_panel!(panel_modules);

#[cfg(test)]
mod tests;
