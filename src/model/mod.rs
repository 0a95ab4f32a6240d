//! The page without the DOM: its one [`state::State`], the [`state::Msg`]s that change it, the
//! link ([`query`]: every URL key), what each control shows ([`controls`]), what the page says
//! ([`present`]) and the tables of panels and controls ([`tables`]). Everything here is compiled and tested natively; the browser layer (`web`) only
//! turns events into messages and puts these values and sentences into elements.

pub mod attention;
pub mod bench;
pub mod canvas;
pub mod controls;
pub mod export;
pub mod extension;
pub mod heads;
pub mod inputs;
pub mod learned;
pub mod nope;
pub mod order;
pub mod params;
pub mod pipeline;
pub mod pipeline_figure;
pub mod plot;
pub mod present;
pub mod presets;
pub mod query;
pub mod scaling;
pub mod schedule;
pub mod settings;
pub mod shaw;
pub mod stacking;
pub mod state;
pub mod t5;
pub mod tables;
