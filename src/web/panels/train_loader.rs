//! The training panel as the page holds it. Its run — the workers, their reports, the figures,
//! the findings and the verdict — is a wasm module of its own (`web::train_module`, built by
//! `crates/pe-lab-train-panel`), fetched the first time the panel comes on screen or is asked to
//! train: a reader who never reaches the exercise does not download it (about 45 KB gzip, which
//! kept the page's first load over its budget). Until it is in, the page writes the panel's
//! settings, the lines before a run and `stats.panels.train` itself, with the same functions the
//! module uses; the settings' fields always belong to the page (they are part of its state).

use std::cell::{Cell, RefCell};

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use super::super::action::{Action, PanelEvent, TrainCommand};
use super::super::dom::listen;
use super::super::error::WebError;
use super::super::panel::Panel;
use super::train::{self, TrainFields};
use super::Ctx;
use crate::model::inputs::Inputs;
use crate::model::panels::PanelId;
use crate::model::state::Msg;
use crate::model::train::TrainSettings;

/// The module's files, beside the page (Trunk writes them there: index.html's
/// `data-type="worker"` link, which builds a module without loading it).
const MODULE_JS: &str = "pe-lab-train-panel.js";
const MODULE_WASM: &str = "pe-lab-train-panel_bg.wasm";

#[wasm_bindgen]
extern "C" {
    /// `web::train_module::TrainModule`, in the training module.
    pub type TrainModule;
    #[wasm_bindgen(method, catch)]
    fn render(
        this: &TrainModule,
        query: &str,
        draw: bool,
        page_cpu_reason: Option<String>,
        look: u32,
    ) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn command(
        this: &TrainModule,
        query: &str,
        page_cpu_reason: Option<String>,
        name: &str,
        promise: Option<Vec<Function>>,
    ) -> Result<bool, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn drain(
        this: &TrainModule,
        query: &str,
        page_cpu_reason: Option<String>,
    ) -> Result<bool, JsValue>;
    #[wasm_bindgen(method)]
    fn stats(this: &TrainModule) -> JsValue;
    #[wasm_bindgen(method)]
    fn version(this: &TrainModule) -> f64;
}

thread_local! {
    /// The module (or why it could not be loaded), from its arrival until the panel takes it.
    static ARRIVED: RefCell<Option<Result<TrainModule, String>>> = const { RefCell::new(None) };
    /// Whether the module listens to the Train button itself.
    static MODULE_READY: Cell<bool> = const { Cell::new(false) };
}

enum Module {
    NotLoaded,
    Loading,
    Ready(TrainModule),
    Failed(String),
}

pub struct TrainPanelHost {
    dom: TrainFields,
    module: Module,
    /// Commands given before the module was in (`peLab.train()`, the Train button).
    pending: Vec<TrainCommand>,
    /// The settings and the page's CPU reason as last rendered (what `stats` describes).
    settings: TrainSettings,
    page_cpu_reason: Option<String>,
}

/// Why the page computes on the CPU, or `None` when it computes on WebGPU.
fn page_cpu_reason(ctx: &Ctx) -> Option<String> {
    (!ctx.backend.is_gpu()).then(|| ctx.backend.adapter())
}

/// The settings as their link writes them (a link gives its settings back exactly).
fn query(settings: &TrainSettings) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(settings.to_query())
        .finish()
}

/// Imports the module and makes its panel; `ModuleLoaded` follows either way.
fn load(send: fn(Action)) -> Result<(), WebError> {
    let host = Object::new();
    let wake = Closure::<dyn Fn()>::new(move || {
        send(Action::Panel {
            panel: PanelId::Train,
            event: PanelEvent::Train(TrainCommand::Wake),
        })
    });
    let set = Closure::<dyn Fn(String, String)>::new(move |key: String, value: String| {
        send(Action::State(Msg::set(&key, value)))
    });
    Reflect::set(&host, &"wake".into(), wake.as_ref())?;
    Reflect::set(&host, &"set".into(), set.as_ref())?;
    // The module lives as long as the page.
    wake.forget();
    set.forget();
    let promise = crate::web::lazy_module::import(MODULE_JS, MODULE_WASM, "TrainModule", &host)?;
    wasm_bindgen_futures::spawn_local(async move {
        let arrived = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map(JsCast::unchecked_into::<TrainModule>)
            .map_err(|e| {
                format!(
                    "the training module could not be loaded: {}",
                    WebError::from(e)
                )
            });
        ARRIVED.with(|slot| *slot.borrow_mut() = Some(arrived));
        send(Action::Panel {
            panel: PanelId::Train,
            event: PanelEvent::Train(TrainCommand::ModuleLoaded),
        });
    });
    Ok(())
}

impl TrainPanelHost {
    pub fn mount() -> Result<Self, WebError> {
        Ok(TrainPanelHost {
            dom: TrainFields::mount()?,
            module: Module::NotLoaded,
            pending: Vec::new(),
            settings: TrainSettings::default(),
            page_cpu_reason: Some("starting".into()),
        })
    }

    fn begin_loading(&mut self, send: fn(Action)) -> Result<(), WebError> {
        if matches!(self.module, Module::NotLoaded) {
            self.module = Module::Loading;
            if let Err(error) = load(send) {
                self.module = Module::Failed(error.to_string());
                return Err(error);
            }
        }
        Ok(())
    }

    /// Hands a command to the module.
    fn forward(&self, module: &TrainModule, command: TrainCommand) -> Result<bool, WebError> {
        let query = query(&self.settings);
        let reason = self.page_cpu_reason.clone();
        match command {
            TrainCommand::Start(promise) => module.command(
                &query,
                reason,
                "start",
                promise.map(|p| vec![p.resolve, p.reject]),
            ),
            TrainCommand::Stop => module.command(&query, reason, "stop", None),
            _ => Ok(false),
        }
        .map_err(WebError::from)
    }

    /// The module arrived (or could not be): it takes the commands that waited for it.
    fn arrived(&mut self) -> Result<bool, WebError> {
        let Some(arrived) = ARRIVED.with(|slot| slot.borrow_mut().take()) else {
            return Ok(false);
        };
        match arrived {
            Ok(module) => {
                MODULE_READY.with(|ready| ready.set(true));
                for command in std::mem::take(&mut self.pending) {
                    self.forward(&module, command)?;
                }
                self.module = Module::Ready(module);
            }
            Err(message) => {
                for command in std::mem::take(&mut self.pending) {
                    if let TrainCommand::Start(Some(promise)) = command {
                        let _ = promise
                            .reject
                            .call1(&JsValue::NULL, &js_sys::Error::new(&message).into());
                    }
                }
                self.module = Module::Failed(message);
            }
        }
        Ok(true)
    }
}

impl Panel for TrainPanelHost {
    fn inputs(&self, ctx: &Ctx) -> Inputs {
        // The settings as their link writes them (exact: a link gives its settings back), which
        // spares the page the Debug code of every configuration type.
        let (stage, version) = match &self.module {
            Module::NotLoaded => (0u32, 0.0),
            Module::Loading => (1, 0.0),
            Module::Ready(module) => (2, module.version()),
            Module::Failed(_) => (3, 0.0),
        };
        Inputs::new()
            .with_list(
                ctx.train
                    .to_query()
                    .into_iter()
                    .map(|(key, value)| format!("{key}={value}")),
            )
            .with(stage)
            .with(version)
            .with(ctx.style.background.css())
            // Where a run would train, and the line that says so, follow the page's backend.
            .with(ctx.backend.adapter())
    }

    fn render(&mut self, ctx: &mut Ctx) -> Result<(), WebError> {
        self.settings = ctx.train.clone();
        self.page_cpu_reason = page_cpu_reason(ctx);
        train::show_settings(&self.dom, ctx.train);
        match &self.module {
            Module::Ready(module) => module
                .render(
                    &query(ctx.train),
                    ctx.draw,
                    self.page_cpu_reason.clone(),
                    ctx.style.look.to_bits(),
                )
                .map_err(WebError::from),
            Module::Failed(message) => Err(WebError::Js(message.clone())),
            Module::NotLoaded | Module::Loading => {
                train::render_before_run(&self.dom, ctx.train, self.page_cpu_reason.as_deref());
                if ctx.draw {
                    self.begin_loading(ctx.send)?;
                }
                Ok(())
            }
        }
    }

    fn stats(&self) -> Option<JsValue> {
        Some(match &self.module {
            Module::Ready(module) => module.stats(),
            _ => train::idle_stats(&self.settings, self.page_cpu_reason.as_deref()),
        })
    }

    fn error_slot(&self) -> &HtmlElement {
        &self.dom.progress
    }

    fn wire(&self, panel: PanelId, send: fn(Action)) -> Result<(), WebError> {
        train::wire_settings(&self.dom, send)?;
        // A press of Train before the module is in waits for it (once it is in, the module
        // listens to the button itself).
        listen(&self.dom.start, "click", move |_| {
            if !MODULE_READY.with(Cell::get) {
                send(Action::Panel {
                    panel,
                    event: PanelEvent::Train(TrainCommand::Start(None)),
                });
            }
        })
    }

    fn event(&mut self, ctx: &mut Ctx, event: PanelEvent) -> Result<bool, WebError> {
        let PanelEvent::Train(command) = event else {
            return Ok(false);
        };
        match command {
            TrainCommand::ModuleLoaded => self.arrived(),
            TrainCommand::Wake => match &self.module {
                Module::Ready(module) => module
                    .drain(&query(&self.settings), self.page_cpu_reason.clone())
                    .map_err(WebError::from),
                _ => Ok(false),
            },
            command @ (TrainCommand::Start(_) | TrainCommand::Stop) => {
                self.settings = ctx.train.clone();
                self.page_cpu_reason = page_cpu_reason(ctx);
                match &self.module {
                    Module::Ready(module) => self.forward(module, command),
                    Module::Failed(message) => {
                        if let TrainCommand::Start(Some(promise)) = command {
                            let _ = promise
                                .reject
                                .call1(&JsValue::NULL, &js_sys::Error::new(message).into());
                        }
                        Ok(false)
                    }
                    Module::NotLoaded | Module::Loading => {
                        self.pending.push(command);
                        self.begin_loading(ctx.send)?;
                        Ok(false)
                    }
                }
            }
            // The module's own commands go to it directly.
            _ => Ok(false),
        }
    }

    fn busy(&self) -> bool {
        matches!(self.module, Module::Loading)
    }
}

/// The panel, mounted (its row of the panel list names this module).
#[inline(always)] // into the list's one `match` (see `crate::panels`)
pub fn mount() -> Result<Box<dyn crate::web::panel::Panel>, crate::web::error::WebError> {
    Ok(Box::new(TrainPanelHost::mount()?))
}
