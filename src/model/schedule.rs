//! When the off-screen panels are brought up to date. A frame only computes the panels on screen;
//! those near it follow one per task, and the others only once every panel is asked for
//! (`peLab.ready`, `stats`, `whenDrawn`), but only once the page has gone [`QUIET_MS`] without a
//! frame and no slider is held down: at n = 2048, d = 1024 one of them can take 200 ms, and a
//! slider dragged again after a pause would otherwise stall behind it.

/// How long the page must be without a new frame before off-screen panels are brought up to date.
pub const QUIET_MS: f64 = 300.0;

/// A frame draws the panels on screen until it has taken this long (P's compute included); the
/// others on screen follow in the tasks right after it, one per task, so that no task holds the
/// page much past the 50 ms of a responsive one.
pub const FRAME_BUDGET_MS: f64 = 30.0;

/// A panel on screen that took longer than this to draw is drawn only once the page has been
/// quiet for [`QUIET_MS`] (dimmed meanwhile): a drag's frames, with P's and the browser's own
/// work, stay within the 50 ms of a responsive task.
pub const HEAVY_PANEL_MS: f64 = 35.0;

/// Whether a panel on screen that took `cost_ms` to draw last time waits for a quiet page.
pub fn waits_for_quiet(cost_ms: f64) -> bool {
    cost_ms > HEAVY_PANEL_MS
}

/// How long the next off-screen panel waits: `None` to go now, else the milliseconds to wait
/// before asking again.
///
/// - `started_up`: false only while a first `peLab.ready` waits for every panel's numbers (then
///   nothing waits);
/// - `quiet_for_ms`: milliseconds since the last frame began;
/// - `slider_held`: a pointer is down on a slider, so more frames may follow at any moment.
pub fn deferred_wait_ms(started_up: bool, quiet_for_ms: f64, slider_held: bool) -> Option<f64> {
    if !started_up {
        return None;
    }
    if slider_held {
        return Some(QUIET_MS);
    }
    // NaN (a clock that went wrong) counts as quiet: the panels must not wait forever.
    if quiet_for_ms < QUIET_MS {
        Some(QUIET_MS - quiet_for_ms)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_up_never_waits() {
        assert_eq!(deferred_wait_ms(false, 0.0, true), None);
        assert_eq!(deferred_wait_ms(false, 0.0, false), None);
    }

    #[test]
    fn after_start_up_the_page_must_be_quiet() {
        assert_eq!(deferred_wait_ms(true, 0.0, false), Some(QUIET_MS));
        assert_eq!(deferred_wait_ms(true, 120.0, false), Some(QUIET_MS - 120.0));
        assert_eq!(deferred_wait_ms(true, QUIET_MS, false), None);
        assert_eq!(deferred_wait_ms(true, 5000.0, false), None);
        assert_eq!(deferred_wait_ms(true, f64::NAN, false), None);
    }

    #[test]
    fn only_panels_slower_than_the_budget_wait_for_a_quiet_page() {
        assert!(!waits_for_quiet(0.0));
        assert!(!waits_for_quiet(HEAVY_PANEL_MS));
        assert!(waits_for_quiet(HEAVY_PANEL_MS + 0.1));
        assert!(waits_for_quiet(220.0));
        assert!(!waits_for_quiet(f64::NAN));
    }

    #[test]
    fn a_held_slider_keeps_them_waiting_however_quiet_the_page() {
        assert_eq!(deferred_wait_ms(true, 0.0, true), Some(QUIET_MS));
        assert_eq!(deferred_wait_ms(true, 10_000.0, true), Some(QUIET_MS));
    }
}
