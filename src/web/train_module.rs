//! The training panel's own wasm module: its run (the workers, their reports, the figures, the
//! findings and the verdict), built from this crate with the `train-module` feature by
//! `crates/pe-lab-train-panel` and fetched by the page only when the panel is first needed
//! (`panels::train_loader`). The page keeps the settings (they are part of its state and link)
//! and hands them over as the link writes them at every call; what the panel sends — a worker's
//! report, a button, the next group of figures — waits in this module until the page asks for
//! it (`drain`), so that every change still goes through the page's one message path.

use std::cell::RefCell;

use js_sys::Function;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::action::{Action, PanelEvent, TrainCommand, TrainPromise};
use super::dom;
use super::error::WebError;
use super::panels::train::{TrainCtx, TrainPanel};
use crate::model::figure_style::{FigureLook, FigureStyle};
use crate::model::state::Msg;
use crate::model::train::TrainSettings;

#[wasm_bindgen]
extern "C" {
    /// The page's side (`panels::train_loader`): `wake()` asks it to call [`TrainModule::drain`];
    /// `set(key, value)` is a change of its state.
    pub type Host;
    #[wasm_bindgen(method)]
    fn wake(this: &Host);
    #[wasm_bindgen(method)]
    fn set(this: &Host, key: &str, value: &str);
    /// The training panel's catalog in the page's language, fetched with this module; absent on
    /// the English page.
    #[wasm_bindgen(method, getter)]
    fn catalog(this: &Host) -> Option<String>;
}

thread_local! {
    static HOST: RefCell<Option<Host>> = const { RefCell::new(None) };
    /// The panel's own events, until the page asks for them.
    static EVENTS: RefCell<Vec<PanelEvent>> = const { RefCell::new(Vec::new()) };
}

/// The panel's `send`: its events wait here, changes of the state go to the page.
fn send(action: Action) {
    HOST.with(|host| {
        let host = host.borrow();
        match action {
            Action::Panel { event, .. } => {
                EVENTS.with(|events| events.borrow_mut().push(event));
                if let Some(host) = host.as_ref() {
                    host.wake();
                }
            }
            Action::State(Msg::Set(entries)) => {
                for (key, value) in entries {
                    if let Some(host) = host.as_ref() {
                        host.set(&key, &value);
                    }
                }
            }
            _ => {}
        }
    });
}

/// The settings from their link's query (`task=shift&tk=3…`), exactly as the page has them: a
/// link gives its settings back.
fn settings_from(query: &str) -> TrainSettings {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    let mut settings = TrainSettings::default();
    settings.apply_all(
        pairs
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str())),
    );
    settings
}

fn js_error(error: WebError) -> JsError {
    JsError::new(&error.to_string())
}

/// The training panel, as the page calls it.
#[wasm_bindgen]
pub struct TrainModule {
    panel: TrainPanel,
    scratch: HtmlCanvasElement,
    /// The figures' style as last rendered (the page's theme and mode).
    style: FigureStyle,
}

#[wasm_bindgen]
impl TrainModule {
    /// Finds the panel's elements and listens to its buttons.
    #[wasm_bindgen(constructor)]
    pub fn new(host: Host) -> Result<TrainModule, JsError> {
        super::install_panic_hook();
        // A catalog that does not parse leaves English (the page has said so for its copy of the
        // computed one; tests/locales.rs parses every catalog).
        let _ = super::language::install_page_catalog::<crate::model::messages::Computed>();
        if let Some(catalog) = host.catalog() {
            let _ = super::language::install_catalog::<crate::model::messages::Training>(&catalog);
        }
        crate::model::messages::preload::<crate::model::messages::Computed>();
        crate::model::messages::preload::<crate::model::messages::Training>();
        HOST.with(|slot| *slot.borrow_mut() = Some(host));
        let panel = TrainPanel::mount().map_err(js_error)?;
        panel.wire_run(send).map_err(js_error)?;
        let scratch = dom::new_canvas().map_err(js_error)?;
        Ok(TrainModule {
            panel,
            scratch,
            style: FigureStyle::for_look(FigureLook::default()),
        })
    }

    /// Computes the run's numbers and lines for these settings and, when `draw`, its figures,
    /// in the page's theme and mode (`look`: the page's `FigureLook` for this frame, as
    /// [`FigureLook::to_bits`] writes it).
    pub fn render(
        &mut self,
        query: &str,
        draw: bool,
        page_cpu_reason: Option<String>,
        look: u32,
    ) -> Result<(), JsError> {
        let settings = settings_from(query);
        self.style = FigureStyle::for_look(FigureLook::from_bits(look));
        let mut ctx = TrainCtx {
            train: &settings,
            style: &self.style,
            draw,
            scratch: &self.scratch,
            page_cpu_reason,
            send,
        };
        self.panel.render(&mut ctx).map_err(js_error)
    }

    /// A command of the page (`start`, with `peLab.train()`'s promise if any; `stop`). Returns
    /// whether the panel must be rendered again.
    pub fn command(
        &mut self,
        query: &str,
        page_cpu_reason: Option<String>,
        name: &str,
        promise: Option<Vec<Function>>,
    ) -> Result<bool, JsError> {
        let command = match name {
            "start" => TrainCommand::Start(promise.and_then(|functions| {
                let mut functions = functions.into_iter();
                Some(TrainPromise {
                    resolve: functions.next()?,
                    reject: functions.next()?,
                })
            })),
            "stop" => TrainCommand::Stop,
            other => return Err(JsError::new(&format!("unknown training command: {other}"))),
        };
        self.handle(query, page_cpu_reason, vec![PanelEvent::Train(command)])
    }

    /// The panel's own events since the last call. Returns whether the panel must be rendered
    /// again.
    pub fn drain(&mut self, query: &str, page_cpu_reason: Option<String>) -> Result<bool, JsError> {
        let events = EVENTS.with(|events| std::mem::take(&mut *events.borrow_mut()));
        self.handle(query, page_cpu_reason, events)
    }

    /// `stats.panels.train`.
    pub fn stats(&self) -> JsValue {
        self.panel.stats()
    }

    /// Changes whenever the figures must be drawn again.
    pub fn version(&self) -> f64 {
        self.panel.version() as f64
    }
}

impl TrainModule {
    fn handle(
        &mut self,
        query: &str,
        page_cpu_reason: Option<String>,
        events: Vec<PanelEvent>,
    ) -> Result<bool, JsError> {
        let settings = settings_from(query);
        let mut ctx = TrainCtx {
            train: &settings,
            style: &self.style,
            draw: true,
            scratch: &self.scratch,
            page_cpu_reason,
            send,
        };
        let mut render = false;
        for event in events {
            render |= self.panel.event(&mut ctx, event).map_err(js_error)?;
        }
        Ok(render)
    }
}
