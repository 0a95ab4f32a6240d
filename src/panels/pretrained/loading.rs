//! The pretrained module's loads: the model's files (manifest, config, tokenizer, position table,
//! layers) once, then the word table's files each new sentence needs, with their bytes counted
//! and the page woken as they arrive. What the loads in flight share with the panel is
//! [`Shared`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::Reflect;
use pe_lab_minilm::page_assets;
use pe_lab_minilm::{BertConfig, MiniLm, WordPieceTokenizer};
use wasm_bindgen::prelude::*;

use super::fetch::fetch_counted;
use super::gpu::{GpuRuns, GpuStage};
use crate::web::dom::now_ms;
use crate::web::error::WebError;

#[wasm_bindgen]
extern "C" {
    /// The page's side (`view.rs`): `wake()` asks it to render the panel again.
    pub type Host;
    #[wasm_bindgen(method)]
    pub(super) fn wake(this: &Host);
    /// The lazily loaded panels' catalog in the page's language; absent on the English page.
    #[wasm_bindgen(method, getter)]
    pub(super) fn catalog(this: &Host) -> Option<String>;
}

/// How often a load in progress asks the page to show its bytes (a render per piece would be
/// hundreds).
const PROGRESS_EVERY_MS: f64 = 150.0;

pub(super) struct Model {
    pub(super) model: MiniLm,
    pub(super) tokenizer: WordPieceTokenizer,
    pub(super) config: BertConfig,
}

pub(super) enum Stage {
    Idle,
    Loading,
    Ready(Box<Model>),
    Failed(String),
}

/// What the loads in flight share with the panel.
pub(super) struct Shared {
    pub(super) stage: Stage,
    pub(super) bytes_loaded: Rc<Cell<f64>>,
    pub(super) bytes_total: f64,
    /// The word-table files being fetched, and why the last fetch failed.
    pub(super) fetching_words: bool,
    pub(super) words_error: Option<String>,
    /// Changes whenever something arrived.
    pub(super) news: u32,
    pub(super) last_wake_ms: f64,
    /// The WebGPU path (`gpu.rs`): where it stands, whether a sentence's job is in flight, and
    /// the last job's runs until a render takes them.
    pub(super) gpu: GpuStage,
    pub(super) gpu_running: bool,
    pub(super) gpu_runs: Option<GpuRuns>,
}

impl Shared {
    pub(super) fn new() -> Self {
        Shared {
            stage: Stage::Idle,
            bytes_loaded: Rc::new(Cell::new(0.0)),
            bytes_total: 0.0,
            fetching_words: false,
            words_error: None,
            news: 0,
            last_wake_ms: f64::NEG_INFINITY,
            gpu: GpuStage::Off,
            gpu_running: false,
            gpu_runs: None,
        }
    }
}

pub(super) fn model_error(error: pe_lab_minilm::MiniLmError) -> WebError {
    WebError::Js(error.to_string())
}

/// Asks the page to render, at most every [`PROGRESS_EVERY_MS`] unless `now`.
pub(super) fn wake(host: &Host, shared: &RefCell<Shared>, now: bool) {
    let mut shared = shared.borrow_mut();
    shared.news = shared.news.wrapping_add(1);
    let time = now_ms();
    if now || time - shared.last_wake_ms >= PROGRESS_EVERY_MS {
        shared.last_wake_ms = time;
        drop(shared);
        host.wake();
    }
}

/// The size of one file in the manifest (0 when it is not listed).
fn listed_bytes(manifest: &JsValue, name: &str) -> f64 {
    Reflect::get(manifest, &"bytes".into())
        .and_then(|bytes| Reflect::get(&bytes, &name.into()))
        .ok()
        .and_then(|size| size.as_f64())
        .unwrap_or(0.0)
}

async fn load_model(host: Rc<Host>, shared: Rc<RefCell<Shared>>) -> Result<Model, WebError> {
    let counted = shared.borrow().bytes_loaded.clone();
    let arrived: Rc<dyn Fn()> = {
        let (host, shared) = (host.clone(), shared.clone());
        Rc::new(move || wake(&host, &shared, false))
    };
    let manifest =
        fetch_counted(page_assets::MANIFEST_FILE, counted.clone(), arrived.clone()).await?;
    let manifest = js_sys::JSON::parse(&String::from_utf8_lossy(&manifest))?;
    let files = [
        page_assets::CONFIG_FILE,
        page_assets::TOKENIZER_FILE,
        page_assets::EMBEDDINGS_FILE,
        page_assets::LAYERS_FILE,
    ];
    {
        let mut shared = shared.borrow_mut();
        shared.bytes_total = counted.get()
            + files
                .iter()
                .map(|name| listed_bytes(&manifest, name))
                .sum::<f64>();
    }
    let mut bytes = Vec::with_capacity(files.len());
    for name in files {
        bytes.push(fetch_counted(name, counted.clone(), arrived.clone()).await?);
    }
    let config = BertConfig::from_config_json(&bytes[0]).map_err(model_error)?;
    let tokenizer = WordPieceTokenizer::from_tokenizer_json(&bytes[1]).map_err(model_error)?;
    let model =
        MiniLm::from_page_assets(config.clone(), &bytes[3], &bytes[2]).map_err(model_error)?;
    Ok(Model {
        model,
        tokenizer,
        config,
    })
}

/// Fetches the word table's files that `ids` need and puts them into the model.
async fn load_words(
    host: Rc<Host>,
    shared: Rc<RefCell<Shared>>,
    chunks: Vec<u32>,
) -> Result<(), WebError> {
    let counted = shared.borrow().bytes_loaded.clone();
    let arrived: Rc<dyn Fn()> = {
        let (host, shared) = (host.clone(), shared.clone());
        Rc::new(move || wake(&host, &shared, false))
    };
    for chunk in chunks {
        let before = counted.get();
        let bytes = fetch_counted(
            &page_assets::word_chunk_path(chunk),
            counted.clone(),
            arrived.clone(),
        )
        .await?;
        let mut shared = shared.borrow_mut();
        shared.bytes_total += counted.get() - before;
        if let Stage::Ready(model) = &mut shared.stage {
            model
                .model
                .insert_word_chunk(chunk, &bytes)
                .map_err(model_error)?;
        }
    }
    Ok(())
}

/// Fetches the model's files and builds it; the page is woken when it is ready or failed.
pub(super) fn start_loading(host: Rc<Host>, shared: Rc<RefCell<Shared>>) {
    shared.borrow_mut().stage = Stage::Loading;
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = load_model(host.clone(), shared.clone()).await;
        shared.borrow_mut().stage = match loaded {
            Ok(model) => Stage::Ready(Box::new(model)),
            Err(error) => Stage::Failed(error.to_string()),
        };
        wake(&host, &shared, true);
    });
}

/// Fetches the word table's files `chunks`; the page is woken when they are in or failed.
pub(super) fn start_words(host: Rc<Host>, shared: Rc<RefCell<Shared>>, chunks: Vec<u32>) {
    {
        let mut shared = shared.borrow_mut();
        shared.fetching_words = true;
        shared.words_error = None;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = load_words(host.clone(), shared.clone(), chunks).await;
        {
            let mut shared = shared.borrow_mut();
            shared.fetching_words = false;
            shared.words_error = loaded.err().map(|error| error.to_string());
        }
        wake(&host, &shared, true);
    });
}

/// Wakes the page in a later task (a zero-delay timeout), after the browser has painted what this
/// one drew: the render it asks for computes the sentence's other runs.
pub(super) fn wake_later(host: Rc<Host>, shared: Rc<RefCell<Shared>>) {
    let Ok(window) = crate::web::dom::window() else {
        return;
    };
    let callback = Closure::once_into_js(move || wake(&host, &shared, true));
    let _ =
        window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0);
}
