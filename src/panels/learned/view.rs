//! A learned absolute table (BERT, GPT-2): E has one row per position 0 … L_max − 1, added to
//! the token at that position. Here E is only initialised (seeded N(0, 0.02²), the models'
//! `initializer_range`): training comes later. Beside it the sinusoid, which has a row for every
//! position. CPU (`math::learned`) on both backends. And beside it a trained table, MiniLM's:
//! its loading, numbers and figure are the pretrained panel's wasm module's (`module.rs`),
//! imported the first time the panel is on screen, so that the page's first load carries none of
//! it.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement};

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::action::PanelEvent;
use crate::web::lazy_module::LazyModule;
use crate::web::panel::{to_js, Panel};

use super::{compute, figure_values, readout, LearnedStats, SHOWN_COLUMNS};
use crate::math::learned::INIT_STD;
use crate::web::dom::{self, now_ms};
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_matrix, Scale};
use crate::web::panels::{elapsed, Ctx};

#[wasm_bindgen]
extern "C" {
    /// `panels::learned::module::TrainedTableModule`, in the pretrained panel's module (the
    /// browser fetches it once for both panels).
    pub type TrainedTableModule;
    #[wasm_bindgen(method, catch)]
    fn render(this: &TrainedTableModule, base: f64, draw: bool, look: u32) -> Result<(), JsValue>;
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
    dom: LearnedDom,
    stats: LearnedStats,
    trained: LazyModule,
}

impl Panel for LearnedPanel {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (stage, version) = self.trained.key();
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
        if ctx.draw {
            let (js, wasm) = crate::panels::pretrained::MODULE;
            self.trained
                .start(PanelId::Learned, (js, wasm, "TrainedTableModule"), ctx.send);
        }
        // The page is written with the trained takeaway at the default base; another base's
        // sinusoid numbers come with the module.
        if ctx.params.base != crate::model::params::DEFAULT_BASE
            && !matches!(self.trained, LazyModule::Ready(_))
        {
            self.dom.trained.set_text_content(None);
        }
        let failed = match &self.trained {
            LazyModule::Ready(module) => module
                .unchecked_ref::<TrainedTableModule>()
                .render(ctx.params.base, ctx.draw, ctx.style.look.to_bits())
                .err()
                .map(|e| WebError::from(e).to_string()),
            LazyModule::Failed(message) => Some(message.clone()),
            _ => None,
        };
        // A trained table that cannot be had leaves the seeded one and its takeaway as they are.
        if let Some(error) = failed {
            dom::text(
                &self.dom.trained,
                &crate::message!("learned-trained-module-failed", error = error.as_str()),
            );
            if !matches!(self.trained, LazyModule::Ready(_)) {
                self.trained = LazyModule::Failed(error);
            }
        }
        Ok(())
    }

    /// The seeded table's numbers, and the trained table's under `trained` (before the module is
    /// in: only its `status`, and the `error` of a module that could not be loaded).
    fn stats(&self) -> Option<JsValue> {
        let stats = to_js(&self.stats);
        let _ = Reflect::set(&stats, &"trained".into(), &self.trained.stats(&[]));
        Some(stats)
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.takeaway
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        if !matches!(event, PanelEvent::Module) {
            return Ok(false);
        }
        self.trained.arrive(PanelId::Learned);
        Ok(true)
    }

    fn busy(&self) -> bool {
        self.trained.busy()
    }
}

/// The panel, mounted (its row of the panel list names this folder).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn Panel>, WebError> {
    let dom = LearnedDom::mount()?;
    // A translated page's trained takeaway in its language: the module's.
    if !crate::web::language::page_is_english() {
        dom.trained.set_text_content(None);
    }
    Ok(Box::new(LearnedPanel {
        dom,
        stats: LearnedStats::default(),
        trained: LazyModule::NotLoaded,
    }))
}
