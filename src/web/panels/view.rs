//! A panel that is a view of the context and nothing more: the elements it finds, the inputs it
//! reads and one function that computes its numbers, writes its sentences and draws its figures.
//! The encoding families' panels (RoPE, its extensions, ALiBi, T5, Shaw, NoPE) and the binary,
//! order, scaling and stacking panels are each one [`View`] row, so that their file holds only
//! what is theirs; a panel with events, exports or a canvas shared with another implements
//! [`Panel`] itself.

use serde::Serialize;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

use super::{elapsed, Ctx};
use crate::model::inputs::Inputs;
use crate::web::dom::now_ms;
use crate::web::error::WebError;
use crate::web::panel::{to_js, Panel};

/// What a view panel is made of: its elements (`D`) and the numbers it keeps for
/// `stats.panels.<name>` (`S`).
pub struct View<D: 'static, S: 'static> {
    /// Finds the panel's elements (an `element_table!`'s `mount`).
    pub elements: fn() -> Result<D, WebError>,
    /// Where a failure is shown: the takeaway, not a read-out behind "More", so that a reader
    /// sees it.
    pub takeaway: fn(&D) -> &HtmlElement,
    /// Everything its numbers and picture depend on.
    pub inputs: fn(&Ctx) -> Inputs,
    /// Computes, writes and (when `ctx.draw`) draws; returns the panel's numbers.
    pub render: fn(&mut Ctx, &D) -> Result<S, WebError>,
    /// Where the numbers keep how long `render` took, in milliseconds (timed here, once for
    /// every view).
    pub ms: fn(&mut S) -> &mut f64,
}

/// The panel a [`View`] describes, mounted.
struct ViewPanel<D: 'static, S: 'static> {
    view: &'static View<D, S>,
    dom: D,
    stats: S,
}

/// Finds `view`'s elements and makes it a panel.
pub fn mount<D, S: Serialize + Default>(
    view: &'static View<D, S>,
) -> Result<Box<dyn Panel>, WebError> {
    Ok(Box::new(ViewPanel {
        view,
        dom: (view.elements)()?,
        stats: S::default(),
    }))
}

/// Writes a view panel's `pub fn mount` (what its row of the panel list calls): [`mount`] of its
/// [`View`] static `$view`.
macro_rules! mount_view {
    ($view:ident) => {
        /// The panel, mounted (its row of the panel list names this module).
        #[inline(always)] // into the list's one `match` (see `crate::panels`)
        pub fn mount() -> Result<Box<dyn $crate::web::panel::Panel>, $crate::web::error::WebError> {
            $crate::web::panels::view::mount(&$view)
        }
    };
}
pub(crate) use mount_view;

impl<D, S: Serialize> Panel for ViewPanel<D, S> {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        (self.view.inputs)(ctx)
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        let started = now_ms();
        self.stats = (self.view.render)(ctx, &self.dom)?;
        *(self.view.ms)(&mut self.stats) = elapsed(started);
        Ok(())
    }

    fn stats(&self) -> Option<JsValue> {
        Some(to_js(&self.stats))
    }

    fn error_slot(&self) -> &HtmlElement {
        (self.view.takeaway)(&self.dom)
    }
}
