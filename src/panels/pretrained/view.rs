//! The pretrained panel as the page holds it: its model, figures and numbers are a wasm module of
//! their own (`module.rs`, built by `crates/pe-lab-pretrained-panel`), imported the first time
//! the panel is on screen (or an embed or a script asks for it: both draw it), so that no byte of
//! the model or of its code is in the page's first load. The page keeps the settings (the
//! sentence, `ptable`) and hands them over at every render; the module tells the page when its
//! bytes or runs arrive (`host.wake()`), which renders the panel again through the page's one
//! message path.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::model::settings::PanelSettings;
use crate::web::action::PanelEvent;
use crate::web::error::WebError;
use crate::web::lazy_module::LazyModule;
use crate::web::panel::{Ctx, Panel};

/// The module's files, beside the page (index.html's `data-type="worker"` Trunk link builds them
/// without loading them), and its class for this panel.
pub const MODULE: (&str, &str) = (
    "pe-lab-pretrained-panel.js",
    "pe-lab-pretrained-panel_bg.wasm",
);

#[wasm_bindgen]
extern "C" {
    /// `panels::pretrained::module::PretrainedModule`, in the module.
    pub type PretrainedModule;
    #[wasm_bindgen(method)]
    fn use_gpu(this: &PretrainedModule, gpu: bool);
    #[wasm_bindgen(method, catch)]
    fn render(
        this: &PretrainedModule,
        text: &str,
        position_table: bool,
        draw: bool,
        look: u32,
    ) -> Result<(), JsValue>;
}

crate::element_table! {
    struct PretrainedDom {
        status: HtmlElement = "pretrained-status",
        takeaway: HtmlElement = "pretrained-takeaway",
        tokens: HtmlElement = "pretrained-tokens",
    }
}

struct PretrainedHost {
    dom: PretrainedDom,
    module: LazyModule,
    position_table: bool,
}

impl PretrainedHost {
    /// The page is written with the default view's tokens and takeaway: another sentence's, or
    /// the zeroed table's, come with the module (which says what the model gives on every
    /// sentence while it loads).
    fn forget_default_view(&self, settings: &PanelSettings) {
        if settings.text != crate::math::tokens::DEFAULT_SENTENCE {
            self.dom.tokens.set_text_content(None);
        }
        if !page_states_takeaway(&settings.text, settings.position_table) {
            self.dom.takeaway.set_text_content(None);
        }
    }
}

/// Whether the page's own takeaway holds for `text` and the switch: the English page is written
/// with the default view's; every other view's (and a translated page's) is the module's.
pub(super) fn page_states_takeaway(text: &str, position_table: bool) -> bool {
    text == crate::math::tokens::DEFAULT_SENTENCE
        && position_table
        && crate::web::language::page_is_english()
}

impl Panel for PretrainedHost {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (stage, version) = self.module.key();
        Inputs::new()
            .with(ctx.settings.text.as_str())
            .with(ctx.settings.position_table)
            .with(ctx.backend.is_gpu())
            .with(stage)
            .with(version)
            .with(ctx.style.background.css())
            .with(u32::from(ctx.style.look.page_px))
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.position_table = ctx.settings.position_table;
        match &self.module {
            LazyModule::Ready(module) => {
                let module = module.unchecked_ref::<PretrainedModule>();
                module.use_gpu(ctx.backend.is_gpu());
                module
                    .render(
                        &ctx.settings.text,
                        ctx.settings.position_table,
                        ctx.draw,
                        ctx.style.look.to_bits(),
                    )
                    .map_err(WebError::from)
            }
            LazyModule::Failed(message) => Err(WebError::Js(message.clone())),
            LazyModule::NotLoaded if ctx.draw => {
                self.forget_default_view(ctx.settings);
                let (js, wasm) = MODULE;
                self.module.start(
                    PanelId::Pretrained,
                    (js, wasm, "PretrainedModule"),
                    ctx.send,
                );
                match &self.module {
                    LazyModule::Failed(message) => Err(WebError::Js(message.clone())),
                    _ => Ok(()),
                }
            }
            LazyModule::NotLoaded | LazyModule::Loading => {
                self.forget_default_view(ctx.settings);
                Ok(())
            }
        }
    }

    /// Before the module is in: the model's name, where it stands and the switch.
    fn stats(&self) -> Option<JsValue> {
        Some(self.module.stats(&[
            ("model", super::MODEL_NAME.into()),
            ("positionTable", self.position_table.into()),
            ("bytesLoaded", 0.into()),
        ]))
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.status
    }

    fn event(&mut self, _ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        if !matches!(event, PanelEvent::Module) {
            return Ok(false);
        }
        self.module.arrive(PanelId::Pretrained);
        Ok(true)
    }

    fn busy(&self) -> bool {
        self.module.busy()
    }
}

/// The panel, mounted (its row of the panel list names this folder).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn Panel>, WebError> {
    let host = PretrainedHost {
        dom: PretrainedDom::mount()?,
        module: LazyModule::NotLoaded,
        position_table: true,
    };
    // A translated page's takeaway in its language from the start: the module's.
    if !crate::web::language::page_is_english() {
        host.dom.takeaway.set_text_content(None);
    }
    Ok(Box::new(host))
}
