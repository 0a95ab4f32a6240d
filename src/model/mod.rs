//! The page without the DOM, compiled and tested natively: its one [`state::State`]
//! ([`params`], [`settings`], the view) and the [`state::Msg`]s that change it; the link
//! ([`query`]: every URL key, read and written once); the panel registry ([`panels`]) and the
//! controls' tables ([`tables`]); what each control shows ([`controls`]); and what the panels
//! share: number formats and P's read-outs ([`present`]), cache keys ([`inputs`]), the figures'
//! look and layouts ([`figure_style`], [`chart_layout`], [`plot`], [`projection_figure`]), and the
//! training panel's settings and reports ([`train`]). Each panel's own numbers and sentences are in
//! its folder (`crate::panels::<name>`). The browser layer (`web`) only turns events into
//! messages, draws, and puts these values and sentences into elements.

pub mod bench;
pub mod canvas;
pub mod chart_layout;
pub mod controls;
pub mod decimal;
pub mod export;
pub mod figure_style;
pub mod inputs;
pub mod messages;
pub mod obstacle_grid;
pub mod panels;
pub mod params;
pub mod plot;
pub mod present;
pub mod presets;
pub mod projection_figure;
pub mod query;
pub mod schedule;
pub mod settings;
pub mod sort;
pub mod state;
pub mod status;
pub mod tables;
pub mod thousands;
pub mod train;
pub mod unbroken;
pub mod view;

#[cfg(test)]
pub mod sentence_checks;
