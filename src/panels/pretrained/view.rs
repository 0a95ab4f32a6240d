//! The pretrained panel as the page holds it: its model, figures and numbers are a wasm module of
//! their own (`module.rs`, built by `crates/pe-lab-pretrained-panel`), imported the first time
//! the panel is on screen (or an embed or a script asks for it: both draw it), so that no byte of
//! the model or of its code is in the page's first load. The page keeps the settings (the
//! sentence, `ptable`) and hands them over at every render; the module tells the page when its
//! bytes or runs arrive (`host.wake()`), which renders the panel again through the page's one
//! message path.

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::action::PanelEvent;
use crate::web::error::WebError;
use crate::web::lazy_module::LazyModule;
use crate::web::panel::{Ctx, Panel, PanelSpec};

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
    #[wasm_bindgen(method, catch)]
    fn render(
        this: &PretrainedModule,
        text: &str,
        position_table: bool,
        draw: bool,
        dark: bool,
        projector: bool,
        page_px: u16,
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
    spec: &'static PanelSpec,
    dom: PretrainedDom,
    module: LazyModule,
    position_table: bool,
    /// Whether the takeaway says what holds for every sentence instead of the default view's.
    general_takeaway: bool,
}

impl PretrainedHost {
    /// Until the model has run on the reader's sentence: what it gives on every sentence of the
    /// test corpus long enough to tell (`tests.rs`), instead of the default sentence's numbers
    /// that the page is written with.
    /// The page is written with the default sentence's tokens: another sentence's come with
    /// the model.
    fn forget_default_tokens(&self, text: &str) {
        if text != crate::math::tokens::DEFAULT_SENTENCE {
            self.dom.tokens.set_text_content(None);
        }
    }

    fn write_general_takeaway(&mut self) {
        if !self.general_takeaway {
            self.general_takeaway = true;
            self.dom
                .takeaway
                .set_text_content(Some(&crate::message!("takeaway-pretrained-before")));
        }
    }
}

impl Panel for PretrainedHost {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (stage, version) = self.module.key();
        Inputs::new()
            .with(ctx.settings.text.as_str())
            .with(ctx.settings.position_table)
            .with(stage)
            .with(version)
            .with(ctx.style.background.css())
            .with(u32::from(ctx.style.look.page_px))
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.position_table = ctx.settings.position_table;
        match &self.module {
            LazyModule::Ready(module) => {
                let look = ctx.style.look;
                module
                    .unchecked_ref::<PretrainedModule>()
                    .render(
                        &ctx.settings.text,
                        ctx.settings.position_table,
                        ctx.draw,
                        look.dark,
                        look.projector,
                        look.page_px,
                    )
                    .map_err(WebError::from)
            }
            LazyModule::Failed(message) => Err(WebError::Js(message.clone())),
            LazyModule::NotLoaded if ctx.draw => {
                self.write_general_takeaway();
                self.forget_default_tokens(&ctx.settings.text);
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
                let settings = ctx.settings;
                if settings.text != crate::math::tokens::DEFAULT_SENTENCE
                    || !settings.position_table
                {
                    self.write_general_takeaway();
                }
                self.forget_default_tokens(&settings.text);
                Ok(())
            }
        }
    }

    /// Before the module is in: the model's name, where it stands and the switch.
    fn stats(&self) -> Option<JsValue> {
        if let LazyModule::Ready(module) = &self.module {
            return Some(module.stats());
        }
        let stats = Object::new();
        for (key, value) in [
            ("model", JsValue::from(super::MODEL_NAME)),
            ("status", self.module.status().into()),
            ("positionTable", self.position_table.into()),
            ("bytesLoaded", 0.into()),
        ] {
            let _ = Reflect::set(&stats, &key.into(), &value);
        }
        if let LazyModule::Failed(message) = &self.module {
            let _ = Reflect::set(&stats, &"error".into(), &message.into());
        }
        Some(stats.into())
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
pub fn mount(spec: &'static PanelSpec) -> Result<Box<dyn Panel>, WebError> {
    let mut host = PretrainedHost {
        spec,
        dom: PretrainedDom::mount()?,
        module: LazyModule::NotLoaded,
        position_table: true,
        general_takeaway: false,
    };
    // A translated page's takeaway in its language from the start.
    let english = crate::web::dom::document()
        .ok()
        .and_then(|document| document.document_element())
        .and_then(|html| html.get_attribute("lang"))
        .map_or(true, |lang| lang.starts_with("en"));
    if !english {
        host.write_general_takeaway();
    }
    Ok(Box::new(host))
}
