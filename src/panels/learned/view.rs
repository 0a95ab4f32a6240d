//! A learned absolute table (BERT, GPT-2): E has one row per position 0 … L_max − 1, added to
//! the token at that position. Here E is only initialised (seeded N(0, 0.02²), the models'
//! `initializer_range`): training comes later. Beside it the sinusoid, which has a row for every
//! position. CPU (`math::learned`) on both backends. And beside it a trained table, MiniLM's:
//! its loading, numbers and figure are the pretrained panel's wasm module's (`module.rs`),
//! imported the first time the panel is on screen, so that the page's first load carries none of
//! it.

use std::cell::RefCell;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement};

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::action::{Action, PanelEvent};
use crate::web::panel::{to_js, Panel, PanelSpec};

use super::{compute, figure_values, readout, LearnedStats, SHOWN_COLUMNS};
use crate::math::learned::INIT_STD;
use crate::web::dom::{self, now_ms};
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_matrix, Scale};
use crate::web::panels::{elapsed, Ctx};

/// The pretrained panel's module, which holds the trained table's code too (the browser fetches
/// it once for both panels).
const MODULE_JS: &str = "pe-lab-pretrained-panel.js";
const MODULE_WASM: &str = "pe-lab-pretrained-panel_bg.wasm";

#[wasm_bindgen]
extern "C" {
    /// `panels::learned::module::TrainedTableModule`, in the pretrained panel's module.
    pub type TrainedTableModule;
    #[wasm_bindgen(method, catch)]
    fn render(
        this: &TrainedTableModule,
        base: f64,
        draw: bool,
        dark: bool,
        projector: bool,
        page_px: u16,
    ) -> Result<(), JsValue>;
    #[wasm_bindgen(method)]
    fn stats(this: &TrainedTableModule) -> JsValue;
    #[wasm_bindgen(method)]
    fn version(this: &TrainedTableModule) -> f64;
    #[wasm_bindgen(method)]
    fn busy(this: &TrainedTableModule) -> bool;
}

thread_local! {
    /// The module (or why it could not be loaded), from its arrival until the panel takes it.
    static ARRIVED: RefCell<Option<Result<TrainedTableModule, String>>> = const { RefCell::new(None) };
}

enum Trained {
    NotLoaded,
    Loading,
    Ready(TrainedTableModule),
    Failed(String),
}

fn render(ctx: &mut Ctx, dom: &LearnedDom) -> Result<LearnedStats, WebError> {
    let started = now_ms();
    let (p, l) = (ctx.params, ctx.settings);
    let learned = compute(p.d, p.n, p.base, l.learned_max, l.seed)?;
    let stats = learned.stats;
    if ctx.draw {
        let columns = stats.d.min(SHOWN_COLUMNS);
        draw_matrix(
            &dom.table,
            ctx.scratch,
            &figure_values(&learned.rows, stats.shown_rows, columns),
            (stats.shown_rows, columns),
            Scale::Diverging((3.0 * INIT_STD) as f32),
            (
                crate::message!("label-axis-column").as_str(),
                crate::message!("figure-learned-table-y").as_str(),
            ),
            (None, None),
        )?;
    }
    dom::text(&dom.readout, &readout(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(LearnedStats {
        ms: elapsed(started),
        ..stats
    })
}

crate::element_table! {
    struct LearnedDom {
        takeaway: HtmlElement = "learned-takeaway",
        table: HtmlCanvasElement = "learned-table",
        readout: HtmlElement = "learned-readout",
        trained: HtmlElement = "learned-trained-takeaway",
    }
}

struct LearnedPanel {
    spec: &'static PanelSpec,
    dom: LearnedDom,
    stats: LearnedStats,
    trained: Trained,
}

/// Imports the module (the pretrained panel's files); `PanelEvent::Module` follows either way.
fn load(send: fn(Action)) -> Result<(), WebError> {
    let event = || Action::Panel {
        panel: PanelId::Learned,
        event: PanelEvent::Module,
    };
    let host = Object::new();
    let wake = Closure::<dyn Fn()>::new(move || send(event()));
    Reflect::set(&host, &"wake".into(), wake.as_ref())?;
    // The module lives as long as the page.
    wake.forget();
    let promise =
        crate::web::lazy_module::import(MODULE_JS, MODULE_WASM, "TrainedTableModule", &host)?;
    wasm_bindgen_futures::spawn_local(async move {
        let arrived = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map(JsCast::unchecked_into::<TrainedTableModule>)
            .map_err(|e| format!("{MODULE_JS}: {}", WebError::from(e)));
        ARRIVED.with(|slot| *slot.borrow_mut() = Some(arrived));
        send(event());
    });
    Ok(())
}

impl Panel for LearnedPanel {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (stage, version) = match &self.trained {
            Trained::NotLoaded => (0u32, 0.0),
            Trained::Loading => (1, 0.0),
            Trained::Ready(module) => (2, module.version()),
            Trained::Failed(_) => (3, 0.0),
        };
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.n)
            .with(ctx.params.base)
            .with(ctx.settings.learned_max)
            .with(ctx.settings.seed)
            .with(stage)
            .with(version)
            .with(ctx.style.background.css())
            .with(u32::from(ctx.style.look.page_px))
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.stats = render(ctx, &self.dom)?;
        let look = ctx.style.look;
        let failed = match &self.trained {
            Trained::Ready(module) => module
                .render(ctx.params.base, ctx.draw, look.dark, look.projector, look.page_px)
                .err()
                .map(|e| WebError::from(e).to_string()),
            Trained::NotLoaded if ctx.draw => {
                self.trained = Trained::Loading;
                load(ctx.send).err().map(|e| e.to_string())
            }
            Trained::Failed(message) => Some(message.clone()),
            _ => None,
        };
        // A trained table that cannot be had leaves the seeded one and its takeaway as they are.
        if let Some(error) = failed {
            dom::text(
                &self.dom.trained,
                &crate::message!("learned-trained-module-failed", error = error.as_str()),
            );
            if !matches!(self.trained, Trained::Ready(_)) {
                self.trained = Trained::Failed(error);
            }
        }
        Ok(())
    }

    /// The seeded table's numbers, and the trained table's under `trained` (before the module is
    /// in: only its `status`, and the `error` of a module that could not be loaded).
    fn stats(&self) -> Option<JsValue> {
        let stats = to_js(&self.stats);
        let trained = match &self.trained {
            Trained::Ready(module) => module.stats(),
            other => {
                let trained = Object::new();
                let (status, error) = match other {
                    Trained::NotLoaded => ("idle", None),
                    Trained::Failed(message) => ("failed", Some(message.as_str())),
                    _ => ("loading", None),
                };
                let _ = Reflect::set(&trained, &"status".into(), &status.into());
                if let Some(error) = error {
                    let _ = Reflect::set(&trained, &"error".into(), &error.into());
                }
                trained.into()
            }
        };
        let _ = Reflect::set(&stats, &"trained".into(), &trained);
        Some(stats)
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.takeaway
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        if !matches!(event, PanelEvent::Module) {
            return Ok(false);
        }
        if let Some(arrived) = ARRIVED.with(|slot| slot.borrow_mut().take()) {
            self.trained = match arrived {
                Ok(module) => Trained::Ready(module),
                Err(message) => Trained::Failed(message),
            };
        }
        Ok(true)
    }

    fn busy(&self) -> bool {
        match &self.trained {
            Trained::Loading => true,
            Trained::Ready(module) => module.busy(),
            _ => false,
        }
    }
}

/// The panel, mounted (its row of the panel list names this folder).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount(spec: &'static PanelSpec) -> Result<Box<dyn Panel>, WebError> {
    Ok(Box::new(LearnedPanel {
        spec,
        dom: LearnedDom::mount()?,
        stats: LearnedStats::default(),
        trained: Trained::NotLoaded,
    }))
}
