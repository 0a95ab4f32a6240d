//! The pretrained panel as the page holds it: its model, figures and numbers are a wasm module of
//! their own (`module.rs`, built by `crates/pe-lab-pretrained-panel`), imported the first time
//! the panel is on screen (or an embed or a script asks for it: both draw it), so that no byte of
//! the model or of its code is in the page's first load. The page keeps the settings (the
//! sentence, `ptable`) and hands them over at every render; the module tells the page when its
//! bytes or runs arrive (`host.wake()`), which renders the panel again through the page's one
//! message path.

use std::cell::RefCell;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::web::action::{Action, PanelEvent};
use crate::web::error::WebError;
use crate::web::panel::{Ctx, Panel, PanelSpec};

/// The module's files, beside the page (index.html's `data-type="worker"` Trunk link builds them
/// without loading them).
const MODULE_JS: &str = "pe-lab-pretrained-panel.js";
const MODULE_WASM: &str = "pe-lab-pretrained-panel_bg.wasm";

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
    #[wasm_bindgen(method)]
    fn stats(this: &PretrainedModule) -> JsValue;
    #[wasm_bindgen(method)]
    fn version(this: &PretrainedModule) -> f64;
    #[wasm_bindgen(method)]
    fn busy(this: &PretrainedModule) -> bool;
}

thread_local! {
    /// The module (or why it could not be loaded), from its arrival until the panel takes it.
    static ARRIVED: RefCell<Option<Result<PretrainedModule, String>>> = const { RefCell::new(None) };
}

enum Module {
    NotLoaded,
    Loading,
    Ready(PretrainedModule),
    Failed(String),
}

crate::element_table! {
    struct PretrainedDom {
        status: HtmlElement = "pretrained-status",
        takeaway: HtmlElement = "pretrained-takeaway",
    }
}

struct PretrainedHost {
    spec: &'static PanelSpec,
    dom: PretrainedDom,
    module: Module,
    position_table: bool,
    /// Whether the takeaway says what holds for every sentence instead of the default view's.
    general_takeaway: bool,
}

impl PretrainedHost {
    /// Until the model has run on the reader's sentence: what it gives on every sentence of the
    /// test corpus long enough to tell (`tests.rs`), instead of the default sentence's numbers
    /// that the page is written with.
    fn write_general_takeaway(&mut self) {
        if !self.general_takeaway {
            self.general_takeaway = true;
            self.dom
                .takeaway
                .set_text_content(Some(&crate::message!("takeaway-pretrained-before")));
        }
    }
}

/// Imports the module; `PanelEvent::Module` follows either way.
fn load(send: fn(Action)) -> Result<(), WebError> {
    let host = Object::new();
    let wake = Closure::<dyn Fn()>::new(move || {
        send(Action::Panel {
            panel: PanelId::Pretrained,
            event: PanelEvent::Module,
        })
    });
    Reflect::set(&host, &"wake".into(), wake.as_ref())?;
    // The module lives as long as the page.
    wake.forget();
    let promise =
        crate::web::lazy_module::import(MODULE_JS, MODULE_WASM, "PretrainedModule", &host)?;
    wasm_bindgen_futures::spawn_local(async move {
        let arrived = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map(JsCast::unchecked_into::<PretrainedModule>)
            .map_err(|e| format!("{MODULE_JS}: {}", WebError::from(e)));
        ARRIVED.with(|slot| *slot.borrow_mut() = Some(arrived));
        send(Action::Panel {
            panel: PanelId::Pretrained,
            event: PanelEvent::Module,
        });
    });
    Ok(())
}

impl Panel for PretrainedHost {
    fn spec(&self) -> &'static PanelSpec {
        self.spec
    }

    fn inputs(&self, ctx: &Ctx) -> Inputs {
        let (stage, version) = match &self.module {
            Module::NotLoaded => (0u32, 0.0),
            Module::Loading => (1, 0.0),
            Module::Ready(module) => (2, module.version()),
            Module::Failed(_) => (3, 0.0),
        };
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
            Module::Ready(module) => {
                let look = ctx.style.look;
                module
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
            Module::Failed(message) => Err(WebError::Js(message.clone())),
            Module::NotLoaded if ctx.draw => {
                self.write_general_takeaway();
                self.module = Module::Loading;
                load(ctx.send).inspect_err(|error| self.module = Module::Failed(error.to_string()))
            }
            Module::NotLoaded | Module::Loading => {
                let settings = ctx.settings;
                if settings.text != crate::math::tokens::DEFAULT_SENTENCE
                    || !settings.position_table
                {
                    self.write_general_takeaway();
                }
                Ok(())
            }
        }
    }

    /// Before the module is in: the model's name, where it stands and the switch.
    fn stats(&self) -> Option<JsValue> {
        if let Module::Ready(module) = &self.module {
            return Some(module.stats());
        }
        let stats = Object::new();
        let status = match &self.module {
            Module::NotLoaded => "idle",
            Module::Failed(_) => "failed",
            _ => "loading",
        };
        for (key, value) in [
            ("model", JsValue::from(super::MODEL_NAME)),
            ("status", status.into()),
            ("positionTable", self.position_table.into()),
            ("bytesLoaded", 0.into()),
        ] {
            let _ = Reflect::set(&stats, &key.into(), &value);
        }
        if let Module::Failed(message) = &self.module {
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
        if let Some(arrived) = ARRIVED.with(|slot| slot.borrow_mut().take()) {
            self.module = match arrived {
                Ok(module) => Module::Ready(module),
                Err(message) => Module::Failed(message),
            };
        }
        Ok(true)
    }

    fn busy(&self) -> bool {
        match &self.module {
            Module::Loading => true,
            Module::Ready(module) => module.busy(),
            _ => false,
        }
    }
}

/// The panel, mounted (its row of the panel list names this folder).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount(spec: &'static PanelSpec) -> Result<Box<dyn Panel>, WebError> {
    let mut host = PretrainedHost {
        spec,
        dom: PretrainedDom::mount()?,
        module: Module::NotLoaded,
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
