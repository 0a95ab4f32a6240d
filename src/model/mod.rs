//! The page without the DOM, compiled and tested natively: its one [`state::State`]
//! ([`params`], [`settings`], the view) and the [`state::Msg`]s that change it; the link
//! ([`query`]: every URL key, read and written once); the panel registry ([`panels`]) and the
//! controls' tables ([`tables`]); what each control shows ([`controls`]); and, one module per panel,
//! its numbers and its sentences (`alibi`, `attention`, `binary`, `complexity`, `extension`,
//! `heads`, `learned`, `nope`, `order`, `pipeline`, `rope`, `scaling`, `shaw`, `similarity`,
//! `stacking`, `t5`; P's own panels in [`present`]). The browser layer (`web`) only turns events
//! into messages, draws, and puts these values and sentences into elements.

pub mod attention;
pub mod bench;
pub mod canvas;
pub mod chart_layout;
pub mod complexity;
pub mod controls;
pub mod decimal;
pub mod export;
pub mod figure_style;
pub mod heads;
pub mod inputs;
pub mod messages;
pub mod obstacle_grid;
pub mod order;
pub mod panels;
pub mod params;
pub mod pipeline;
pub mod pipeline_figure;
pub mod pipeline_selection;
pub mod plot;
pub mod present;
pub mod presets;
pub mod projection_figure;
pub mod query;
pub mod scaling;
pub mod schedule;
pub mod settings;
pub mod sort;
pub mod stacking;
pub mod state;
pub mod status;
pub mod tables;
pub mod takeaway_attention;
pub mod thousands;
pub mod train;
pub mod unbroken;

#[cfg(test)]
pub mod sentence_checks;
