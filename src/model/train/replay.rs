//! A link's training run computed natively, exactly as the page's workers compute it: the same
//! link keys read into the same settings, every encoding and seed trained by the training crate's
//! [`Session`] on the CPU, and its reports taken in by the same [`TrainRun`]. The page's losses
//! for a link with `trainer=cpu` (or on a page that trains on the CPU) are these bits; the
//! training crate's `compare --link` example prints them, and a test holds them against the page.

use pe_lab_train::session::Session;

use super::device;
use super::run::TrainRun;
use crate::model::query::state_from_link;

/// The run a link starts in the page, trained to the end on this machine's CPU, and the notices
/// the link gives (values out of range, unknown keys).
pub fn run_link(search: &str) -> Result<(TrainRun, Vec<String>), String> {
    let (state, notices) = state_from_link(search);
    let settings = state.train;
    let cpu = super::choose_before_trial(device::TrainerRequest::Cpu, None);
    let mut run = TrainRun::new(1, &settings, 1, cpu);
    let mut session = Session::start(
        1,
        &settings.config,
        &settings.encodings,
        &settings.seed_list(),
    )
    .map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let mut clock = move || started.elapsed().as_secs_f64();
    while !session.is_finished() {
        for report in session.work(&mut clock, 0.05) {
            run.absorb(report);
        }
    }
    run.wall_seconds = started.elapsed().as_secs_f64();
    if let Some(failure) = &run.failure {
        return Err(failure.clone());
    }
    Ok((run, notices))
}
