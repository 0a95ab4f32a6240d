//! Context extension of RoPE: position interpolation (θ/s), NTK-aware scaling (base
//! b·s^(d/(d−2))) and YaRN (a ramp by rotations within the training length, and the temperature
//! 0.1·ln s + 1), pair by pair, with each pair's wavelength against the training length L and the
//! extended length s·L. CPU (`math::extension`) on both backends: d/2 numbers.

use crate::model::inputs::Inputs;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{
    compute, ratios_sentence, too_few_pairs_sentence, wavelength_sentence, ExtensionStats,
};
use crate::model::figure_style::FigureStyle;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_lines, LineChart, Series};
use crate::web::panels::view::View;
use crate::web::panels::{canvas_message, Ctx};

fn render(ctx: &mut Ctx, dom: &ExtensionDom) -> Result<ExtensionStats, WebError> {
    let (p, l) = (ctx.params, ctx.settings);
    let stats = compute(p.d, p.base, l.extension_scale, l.training_context)?;
    if stats.d < 4 {
        if ctx.draw {
            for canvas in [&dom.ratios, &dom.wavelengths] {
                canvas_message(
                    canvas,
                    &[
                        crate::message!("figure-extension-too-few-pairs-line-1").as_str(),
                        crate::message!("figure-extension-too-few-pairs-line-2").as_str(),
                    ],
                )?;
            }
        }
        dom::text(&dom.readout, &too_few_pairs_sentence(p.d));
        dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
        dom::text(&dom.wavelength_readout, "");
        return Ok(stats);
    }
    if ctx.draw {
        draw_ratios(&dom.ratios, &stats, ctx.style)?;
        draw_wavelengths(&dom.wavelengths, &stats, ctx.style)?;
    }
    dom::text(&dom.readout, &ratios_sentence(&stats));
    dom::text(&dom.wavelength_readout, &wavelength_sentence(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

/// The values of one pair per point.
fn by_pair(values: &[f64]) -> Vec<(f64, f64)> {
    values
        .iter()
        .enumerate()
        .map(|(j, &v)| (j as f64, v))
        .collect()
}

/// Each method's θ'_j / θ_j, pair by pair.
fn draw_ratios(
    canvas: &HtmlCanvasElement,
    stats: &ExtensionStats,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let (s, pairs, index) = (stats.scale, stats.ntk_ratios.len(), by_pair);
    draw_lines(
        canvas,
        &LineChart {
            style,
            x_desc: &crate::message!("figure-extension-ratios-x"),
            // A linear axis: the ratios lie in [1/s, 1], less than two decades, where a log
            // axis gets a single tick.
            y_desc: "θ'_j / θ_j",
            log_x: false,
            log_y: false,
            series: vec![
                Series {
                    label: "PI: 1/s".into(),
                    colour: 4,
                    points: vec![(0.0, 1.0 / s), ((pairs - 1) as f64, 1.0 / s)],
                    dashed: true,
                    markers: false,
                    ..Default::default()
                },
                Series {
                    label: "NTK-aware".into(),
                    colour: 0,
                    points: index(&stats.ntk_ratios),
                    dashed: false,
                    markers: pairs <= 64,
                    ..Default::default()
                },
                Series {
                    label: crate::message!("figure-extension-legend-yarn-as-run"),
                    colour: 2,
                    points: index(&stats.yarn_ratios),
                    dashed: false,
                    markers: pairs <= 64,
                    ..Default::default()
                },
                Series {
                    label: crate::message!("figure-extension-legend-yarn-paper"),
                    colour: 3,
                    points: index(&stats.yarn_ratios_paper),
                    dashed: true,
                    markers: false,
                    ..Default::default()
                },
            ],
            y_range: Some((0.0, 1.08)),
            marks: Vec::new(),
        },
    )
}

/// Each pair's wavelength against the training length L and the extended length s·L.
fn draw_wavelengths(
    canvas: &HtmlCanvasElement,
    stats: &ExtensionStats,
    style: &FigureStyle,
) -> Result<(), WebError> {
    let (s, context) = (stats.scale, stats.training_context);
    let (pairs, index) = (stats.ntk_ratios.len(), by_pair);
    draw_lines(
        canvas,
        &LineChart {
            style,
            x_desc: &crate::message!("label-axis-pair-j"),
            y_desc: &crate::message!("figure-extension-wavelengths-y"),
            log_x: false,
            log_y: true,
            series: vec![
                Series {
                    label: "λ_j".into(),
                    colour: 0,
                    points: index(&stats.wavelengths),
                    dashed: false,
                    markers: pairs <= 64,
                    ..Default::default()
                },
                Series {
                    label: format!("L = {context}"),
                    colour: 6,
                    points: vec![(0.0, context as f64), ((pairs - 1) as f64, context as f64)],
                    dashed: true,
                    markers: false,
                    ..Default::default()
                },
                Series {
                    label: format!("s·L = {}", s * context as f64),
                    colour: 4,
                    points: vec![
                        (0.0, s * context as f64),
                        ((pairs - 1) as f64, s * context as f64),
                    ],
                    dashed: true,
                    markers: false,
                    ..Default::default()
                },
            ],
            y_range: None,
            marks: Vec::new(),
        },
    )
}

crate::element_table! {
    pub struct ExtensionDom {
        takeaway: HtmlElement = "extension-takeaway",
        ratios: HtmlCanvasElement = "ext-ratios",
        readout: HtmlElement = "ext-readout",
        wavelengths: HtmlCanvasElement = "ext-wavelengths",
        wavelength_readout: HtmlElement = "ext-wavelength-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<ExtensionDom, ExtensionStats> = View {
    elements: ExtensionDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        Inputs::new()
            .with(ctx.params.d)
            .with(ctx.params.base)
            .with(ctx.settings.extension_scale)
            .with(ctx.settings.training_context)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
