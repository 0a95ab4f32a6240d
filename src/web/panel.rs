//! The one panel model. Every panel of the page is a [`Panel`]: it says what it depends on
//! ([`Panel::inputs`]), computes and draws ([`Panel::render`]), keeps its numbers
//! ([`Panel::stats`]) and may answer its own events. [`PANELS`] is the table of panels: their
//! names (section `panel-<name>`, `?embed=<name>`, `stats.panels.<name>`), titles, exports and
//! whether they wait until they are on screen. A new panel is its row in the one list of panels
//! (`model::panels`) and its folder in `src/panels/`, whose module has a `pub fn mount`; a panel
//! that is only a view of the settings is a `web::panels::view::View` row in its folder's view,
//! with no `Panel` code of its own.

use crate::model::inputs::Inputs;
use ndarray::Array2;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::action::{Action, PanelEvent};
use super::backend::{Backend, FrameData, LocalFuture};
use super::error::WebError;
use super::panels;
use super::stats::Stats;
pub use crate::model::panels::{PanelId, PanelSpec, PANELS};
use crate::model::params::Params;
use crate::model::plot::PixelRect;
use crate::model::settings::PanelSettings;

/// Finds every panel's elements, in the order of [`PANELS`].
pub fn mount_panels() -> Result<Vec<Box<dyn Panel>>, WebError> {
    PANELS.iter().map(|spec| mount(spec.id)).collect()
}

/// Makes `mount` from the rows of the one list of panels ([`crate::for_each_panel!`]): each
/// panel's folder module (`crate::panels::<folder>`) has a `pub fn mount`.
macro_rules! panel_mount {
    ($({ $variant:ident, $name:literal, $module:ident, $($row:tt)* })*) => {
        /// Finds one panel's elements.
        fn mount(id: PanelId) -> Result<Box<dyn Panel>, WebError> {
            match id {
                $(PanelId::$variant => crate::panels::$module::mount(),)*
            }
        }
    };
}

crate::for_each_panel!(panel_mount);

/// What a panel renders with.
pub struct Ctx<'a> {
    pub params: &'a Params,
    pub settings: &'a PanelSettings,
    pub backend: &'a mut Backend,
    /// The last frame of P: gathered columns and reductions, and P itself on the CPU path.
    pub frame: &'a FrameData,
    /// Counts P's frames: P's panels depend on it.
    pub frame_id: u32,
    /// P (n × d) on the CPU path; empty on WebGPU.
    pub encoding: &'a Array2<f32>,
    /// An offscreen canvas for cell images.
    pub scratch: &'a HtmlCanvasElement,
    /// The heatmap of P, and where it has its cells (the binary panel copies them).
    pub encoding_canvas: &'a HtmlCanvasElement,
    pub heatmap_rect: PixelRect,
    /// Whether the panel is on screen: draw its canvases, or only compute its numbers.
    pub draw: bool,
    /// The page's top-level numbers (P's panels write theirs here).
    pub stats: &'a mut Stats,
    /// Where results that arrive later (a GPU read-back, a timing) are sent, as actions.
    pub send: fn(Action),
    /// This panel, for the actions it sends.
    pub panel: PanelId,
    /// The values panels share or keep between frames (owned by the app).
    pub caches: &'a panels::Caches,
    /// The colours and type of every figure, for the page's theme and mode.
    pub style: &'a crate::model::figure_style::FigureStyle,
    /// The training panel's settings.
    pub train: &'a crate::model::train::TrainSettings,
}

/// A panel of the page. Which one it is, is its place in the list that [`mount_panels`] returns
/// (the order of [`PANELS`]).
pub trait Panel {
    /// Everything the panel's numbers and picture depend on, as a typed key: the panel is
    /// recomputed when it changes (and drawn once it is on screen).
    fn inputs(&self, ctx: &Ctx) -> Inputs;

    /// Computes the panel's numbers and read-outs and, when `ctx.draw`, draws its canvases.
    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError>;

    /// `stats.panels.<name>`; `None` for the panels whose numbers are top-level stats.
    fn stats(&self) -> Option<JsValue> {
        None
    }

    /// Where a failure of this panel is shown.
    fn error_slot(&self) -> &HtmlElement;

    /// Registers the panel's own listeners; each becomes an [`Action::Panel`].
    fn wire(&self, _panel: PanelId, _send: fn(Action)) -> Result<(), WebError> {
        Ok(())
    }

    /// An event of this panel (hover, keyboard, a button, a result that arrived). Returns
    /// whether the panel must be rendered again.
    fn event(&mut self, _ctx: &mut Ctx, _event: PanelEvent) -> Result<bool, WebError> {
        Ok(false)
    }

    /// The canvas P's cells are painted into by the backend (the heatmap panel's).
    fn encoding_canvas(&self) -> Option<&HtmlCanvasElement> {
        None
    }

    /// The panel's numbers as CSV (file name stem, text), when it has them.
    fn csv(&self, _ctx: &Ctx) -> Option<LocalFuture<Result<String, WebError>>> {
        None
    }

    /// The panel's figure as SVG, when it has one.
    fn svg(&self, _ctx: &Ctx) -> Option<Result<String, WebError>> {
        None
    }

    /// Whether the panel waits for something (a GPU timing): `whenDrawn` waits too.
    fn busy(&self) -> bool {
        false
    }
}

/// Serialises a panel's numbers for `stats.panels`.
pub fn to_js<T: serde::Serialize>(stats: &T) -> JsValue {
    serde_wasm_bindgen::to_value(stats).unwrap_or(JsValue::NULL)
}

/// Writes, inside a `Panel` impl, the `stats` of a panel that keeps its numbers in the field
/// `$field` (every panel with numbers of its own but the view rows, which keep theirs alike).
macro_rules! stats_in {
    ($field:ident) => {
        fn stats(&self) -> Option<wasm_bindgen::JsValue> {
            Some($crate::web::panel::to_js(&self.$field))
        }
    };
}
pub(crate) use stats_in;
