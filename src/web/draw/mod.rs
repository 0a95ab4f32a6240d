//! Drawing helpers shared by the panels: heatmap frames and cell images, the column curves
//! (plotters), the unit-circle projection. They draw what they are given; the numbers come from
//! `math` and the words from `model::present`.

pub mod curves;
pub mod heatmap;
pub mod projection;
