//! The one message path and the one render scheduler.
//!
//! [`send`] queues an [`Action`] and hands every queued action to `App::dispatch`, one at a time;
//! an action sent while another is being handled (from a callback the app triggered) waits in the
//! queue, it is never dropped. Dispatch only updates state and marks what is stale; the first
//! action that needs pixels requests one animation frame, and that frame renders everything that
//! is stale. After a complete frame whose state differs from the last one announced, the
//! `peLab.on('change')` listeners run, outside any borrow of the app: they may read every getter
//! and call `peLab.set`. A listener that changes the state starts another round; a chain longer
//! than [`MAX_LISTENER_ROUNDS`] is stopped with a notice.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::action::Action;
use super::app::{App, FrameStep};
use super::dom;
use crate::model::status::listener_chain_notice;

/// How often the address bar may be rewritten: `history.replaceState` is rate-limited by
/// browsers, so it is called at most this often, always with the newest state.
const URL_UPDATE_MS: i32 = 120;

/// Rounds of `change` listeners calling `peLab.set` before the chain is stopped.
pub const MAX_LISTENER_ROUNDS: u32 = 16;

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
    static QUEUE: RefCell<VecDeque<Action>> = const { RefCell::new(VecDeque::new()) };
    static FRAME_REQUESTED: Cell<bool> = const { Cell::new(false) };
    static URL_PENDING: Cell<bool> = const { Cell::new(false) };
    /// Functions registered with `peLab.on('change', fn)`.
    static LISTENERS: RefCell<Vec<Function>> = const { RefCell::new(Vec::new()) };
    /// Resolvers of `peLab.whenDrawn()` promises.
    static WAITERS: RefCell<Vec<Function>> = const { RefCell::new(Vec::new()) };
    /// The round of listeners running now (0: none).
    static LISTENER_ROUND: Cell<u32> = const { Cell::new(0) };
    /// The deepest round whose listeners changed the state since the last announcement.
    static PENDING_ROUND: Cell<u32> = const { Cell::new(0) };
}

/// Installs the app; from now on actions are dispatched.
pub fn install(app: App) {
    APP.with(|cell| cell.replace(Some(app)));
}

/// Runs `f` on the app; `None` before start-up or while the app is busy with another call.
pub fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    let result = APP.with(|cell| cell.try_borrow_mut().ok()?.as_mut().map(f));
    result
}

/// Queues an action and dispatches every queued action unless one is being handled (then that
/// one's caller dispatches it when it is done).
pub fn send(action: Action) {
    QUEUE.with(|q| q.borrow_mut().push_back(action));
    drain();
}

fn drain() {
    while let Some(action) = QUEUE.with(|q| q.borrow_mut().pop_front()) {
        let outcome = APP.with(|cell| match cell.try_borrow_mut() {
            Ok(mut app) => Some(app.as_mut().map(|app| app.dispatch(action))),
            Err(_) => {
                // Busy: put it back in front; the holder of the borrow drains the queue after.
                QUEUE.with(|q| q.borrow_mut().push_front(action));
                None
            }
        });
        match outcome {
            None => return,
            Some(Some(effects)) => apply(effects),
            Some(None) => {}
        }
    }
    settle_waiters();
}

/// Starts the app on the chosen backend: the first frame follows.
pub fn start_on(backend: super::backend::Backend) {
    if let Some(effects) = with_app(|app| app.start_on(backend)) {
        apply(effects);
    }
    drain();
}

fn apply(effects: super::app::Effects) {
    if effects.frame {
        request_frame();
    }
    if effects.url {
        request_url_update();
    }
}

/// Whether an animation frame is requested and not yet run.
pub fn frame_requested() -> bool {
    FRAME_REQUESTED.with(Cell::get)
}

/// Renders on the next animation frame: any number of actions before it become one render.
pub fn request_frame() {
    if FRAME_REQUESTED.with(Cell::get) {
        return;
    }
    let Ok(window) = dom::window() else { return };
    let callback = Closure::once_into_js(on_animation_frame);
    if window
        .request_animation_frame(callback.unchecked_ref())
        .is_ok()
    {
        FRAME_REQUESTED.with(|f| f.set(true));
    }
}

/// A frame of a page already started whose last frame was heavy runs in the task right after
/// its animation frame, so that the browser's commit of what the last frame drew (about 30 ms for
/// the heatmap's canvas at n = 2048, d = 1024 in a headless Chromium) and the frame's own work
/// (about 27 ms) are two tasks of under 50 ms rather than one of 60. The others run in the
/// animation frame itself, before the browser paints: the first frame, and a frame while a jump's
/// section is kept below the bar, whose scroll would otherwise be painted a frame late (a layout
/// shift).
fn on_animation_frame() {
    let in_task = with_app(|app| app.frame_may_follow_commit()).unwrap_or(false)
        && !super::layout::keeping_alignment();
    let window = match dom::window() {
        Ok(window) if in_task => window,
        _ => {
            run_frame();
            return;
        }
    };
    let callback = Closure::once_into_js(run_frame);
    if window
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0)
        .is_err()
    {
        run_frame();
    }
}

fn run_frame() {
    FRAME_REQUESTED.with(|f| f.set(false));
    match with_app(App::frame) {
        Some(FrameStep::Pending(id, pending)) => {
            wasm_bindgen_futures::spawn_local(async move {
                let data = pending.await;
                with_app(|app| app.finish_pending_frame(id, data));
                after_frame();
            });
        }
        Some(FrameStep::Done) => after_frame(),
        None => {}
    }
    drain();
}

/// After a complete frame: the address bar, the `change` listeners, `whenDrawn`.
fn after_frame() {
    with_app(App::watch_gpu_queue);
    let announcement = with_app(App::take_change_announcement).flatten();
    if let Some(state) = announcement {
        request_url_update();
        notify_listeners(&state);
    }
    drain();
}

fn notify_listeners(state: &JsValue) {
    let round = PENDING_ROUND.with(|p| p.replace(0)) + 1;
    let listeners = LISTENERS.with(|l| l.borrow().clone());
    LISTENER_ROUND.with(|r| r.set(round));
    for listener in listeners {
        if let Err(error) = listener.call1(&JsValue::NULL, state) {
            web_sys::console::error_2(&"pe-lab: a change listener failed:".into(), &error);
        }
    }
    LISTENER_ROUND.with(|r| r.set(0));
}

/// Whether a `peLab.set` may be applied: outside listeners always; inside, until the chain of
/// listener rounds is too long (then a notice says so and the change is dropped).
pub fn admit_api_change() -> bool {
    let round = LISTENER_ROUND.with(Cell::get);
    if round == 0 {
        return true;
    }
    if round >= MAX_LISTENER_ROUNDS {
        with_app(|app| app.push_notice(listener_chain_notice(MAX_LISTENER_ROUNDS)));
        request_frame();
        return false;
    }
    PENDING_ROUND.with(|p| p.set(p.get().max(round)));
    true
}

pub fn add_listener(listener: Function) {
    LISTENERS.with(|l| l.borrow_mut().push(listener));
}

pub fn remove_listener(listener: &Function) {
    LISTENERS.with(|l| l.borrow_mut().retain(|f| !js_sys::Object::is(f, listener)));
}

fn request_url_update() {
    if URL_PENDING.with(Cell::get) {
        return;
    }
    let Ok(window) = dom::window() else { return };
    let callback = Closure::once_into_js(|| {
        URL_PENDING.with(|p| p.set(false));
        with_app(|app| app.write_url());
        drain();
    });
    if window
        .set_timeout_with_callback_and_timeout_and_arguments_0(
            callback.unchecked_ref(),
            URL_UPDATE_MS,
        )
        .is_ok()
    {
        URL_PENDING.with(|p| p.set(true));
    }
}

/// Sends `action` in a later task (a zero-delay timeout): work split across tasks leaves the
/// browser room for input events and frames in between.
pub fn defer(action: Action) {
    defer_after(action, 0.0);
}

/// [`defer`] with a delay in milliseconds.
pub fn defer_after(action: Action, delay_ms: f64) {
    let Ok(window) = dom::window() else { return };
    let callback = Closure::once_into_js(move || {
        send(action);
        // The last deferred step completes the frame's work: announce it as a frame would.
        after_frame();
    });
    // A float delay of 0 to about 300 ms: the cast is exact enough and cannot overflow.
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        callback.unchecked_ref(),
        delay_ms.clamp(0.0, 10_000.0).ceil() as i32,
    );
}

/// Whether a `peLab.whenDrawn()` waits: the panels it waits for are all brought up to date.
pub fn waiters_pending() -> bool {
    WAITERS.with(|w| !w.borrow().is_empty())
}

/// `peLab.whenDrawn()`: resolves once nothing is left to draw.
pub fn when_drawn(resolve: Function) {
    WAITERS.with(|w| w.borrow_mut().push(resolve));
    // Off-screen panels are brought up to date now (or after the frame that is due): the caller
    // asked for everything to be drawn. Announced like the end of a frame.
    if with_app(|app| {
        app.complete_wanted = true;
        app.flush_deferred_if_waiting()
    })
    .unwrap_or(false)
    {
        after_frame();
    }
    settle_waiters();
}

fn settle_waiters() {
    let queued = QUEUE.with(|q| !q.borrow().is_empty());
    if queued || FRAME_REQUESTED.with(Cell::get) {
        return;
    }
    // Before start-up, or while the app is borrowed, there is nothing to wait for here: the
    // holder settles them when it is done.
    match with_app(|app| app.is_busy()) {
        Some(false) => {}
        Some(true) => {
            // The panels they wait for go on being brought up to date (one chain at a time).
            with_app(|app| app.schedule_deferred(0.0));
            return;
        }
        None => {
            if APP.with(|cell| cell.try_borrow().map(|a| a.is_some()).unwrap_or(true)) {
                return;
            }
        }
    }
    let waiters = WAITERS.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for resolve in waiters {
        let _ = resolve.call0(&JsValue::NULL);
    }
}

/// Reports a failure on the page.
pub fn report(result: Result<(), super::error::WebError>) {
    if let Err(error) = result {
        super::show_error(&error.to_string());
    }
}
