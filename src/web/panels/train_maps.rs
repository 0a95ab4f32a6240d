//! The training panel's heatmaps: the sinusoidal P of the learned table's size beside the learned
//! table, both normalised Gram matrices, and a trained model's attention map with its menu of
//! encodings and its read-out.

use pe_lab_train::analysis::{normalised_gram, sinusoidal_table};
use pe_lab_train::protocol::EncodingReport;
use pe_lab_train::trainer::AttentionMap;
use wasm_bindgen::JsCast;
use web_sys::HtmlOptionElement;

use super::super::canvas_message;
use super::super::family_charts::{draw_matrix, Scale};
use super::super::train::{TrainCtx, TrainDom};
use crate::model::train::findings::{offset_weights, points, spread_text};
use crate::model::train::run::TrainRun;
use crate::model::train::TrainEncoding;
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::surface;

/// The axis titles (x, y) of a table of positions by columns (P, the learned table).
fn table_axes() -> (String, String) {
    (
        crate::training_message!("train-axis-column"),
        crate::training_message!("train-axis-position"),
    )
}

/// The axis titles (x, y) of a Gram matrix of positions, the same for P's and the learned
/// table's.
fn gram_axes() -> (String, String) {
    (
        crate::training_message!("train-axis-position-j"),
        crate::training_message!("train-axis-position-i"),
    )
}

/// The sinusoidal P of the learned table's size, and its normalised Gram matrix.
pub(super) fn draw_p_tables(
    ctx: &TrainCtx,
    dom: &TrainDom,
    rows: usize,
    cols: usize,
) -> Result<(), WebError> {
    // P depends on its size and the page's style only, not on the run: a new run, or a seed's
    // result, does not draw its two heatmaps again (a frame's largest cost when a run starts).
    let key = format!(
        "{rows}x{cols}|{}|{}",
        ctx.style.background.css(),
        ctx.style.label_px
    );
    let drawn = [&dom.sinusoid, &dom.gram_p].iter().all(|canvas| {
        canvas.get_attribute("data-p-key").as_deref() == Some(key.as_str())
            && canvas.has_attribute("data-logical-width")
            && !surface::out_of_date(canvas)
    });
    if drawn {
        return Ok(());
    }
    for canvas in [&dom.sinusoid, &dom.gram_p] {
        canvas.set_attribute("data-p-key", &key)?;
    }
    let p = sinusoidal_table(rows, cols);
    let (table_x, table_y) = table_axes();
    let (gram_x, gram_y) = gram_axes();
    draw_matrix(
        &dom.sinusoid,
        ctx.scratch,
        &p.values,
        (rows, cols),
        Scale::Diverging(1.0),
        (&table_x, &table_y),
        (None, None),
    )?;
    let gram_p: Vec<f32> = normalised_gram(&p.values, rows, cols)
        .unwrap_or_default()
        .into_iter()
        .map(|v| v as f32)
        .collect();
    draw_matrix(
        &dom.gram_p,
        ctx.scratch,
        &gram_p,
        (rows, rows),
        Scale::Diverging(1.0),
        (&gram_x, &gram_y),
        (None, None),
    )
}

/// The learned table beside P, and its normalised Gram matrix (a notice before a run with the
/// learned table has finished).
pub(super) fn draw_learned_tables(
    ctx: &TrainCtx,
    dom: &TrainDom,
    learned: Option<&EncodingReport>,
) -> Result<(), WebError> {
    match learned.and_then(|r| Some((r, r.table.as_ref()?))) {
        Some((r, table)) => {
            let limit = table
                .values
                .iter()
                .fold(0f32, |m, v| m.max(v.abs()))
                .max(1e-6);
            let (table_x, table_y) = table_axes();
            let (gram_x, gram_y) = gram_axes();
            draw_matrix(
                &dom.table,
                ctx.scratch,
                &table.values,
                (table.rows, table.cols),
                Scale::Diverging(limit),
                (&table_x, &table_y),
                (None, None),
            )?;
            let gram: Vec<f32> = normalised_gram(&table.values, table.rows, table.cols)
                .unwrap_or_default()
                .into_iter()
                .map(|v| v as f32)
                .collect();
            draw_matrix(
                &dom.gram,
                ctx.scratch,
                &gram,
                (table.rows, table.rows),
                Scale::Diverging(1.0),
                (&gram_x, &gram_y),
                (None, None),
            )?;
            dom::text(
                &dom.spread,
                &crate::training_message!(
                    "train-figure-spread",
                    untrained = r.translation_spread_initial.map_or("–".into(), spread_text),
                    trained = r.translation_spread_trained.map_or("–".into(), spread_text),
                    sinusoidal = spread_text(r.translation_spread_sinusoidal)
                ),
            );
        }
        None => {
            let lines = [
                crate::training_message!("train-figure-learned-missing-first"),
                crate::training_message!("train-figure-learned-missing-second"),
            ];
            for canvas in [&dom.table, &dom.gram] {
                canvas_message(canvas, &[&lines[0], &lines[1]])?;
            }
            dom::text(&dom.spread, "");
        }
    }
    Ok(())
}

/// The attention map of one trained model's head (the encoding the reader chose, or the one whose
/// head hits the offset most often), the menu of encodings it is chosen from, and its read-out.
pub(super) fn draw_attention(
    ctx: &TrainCtx,
    dom: &TrainDom,
    run: &TrainRun,
    chosen: Option<TrainEncoding>,
) -> Result<(), WebError> {
    // The maps of the first seed (every seed's are measured; one is drawn).
    let finished: Vec<&EncodingReport> = run.first_seed_results().collect();
    list_encodings(dom, &finished)?;
    let Some(report) = shown_report(&finished, chosen) else {
        dom::text(&dom.attention_readout, "");
        return canvas_message(
            &dom.attention,
            &[
                &crate::training_message!("train-figure-attention-later-first"),
                &crate::training_message!("train-figure-attention-later-second"),
            ],
        );
    };
    dom.attention_choice.set_value(report.encoding.link_name());
    let (layer, head) = report
        .offset_hit_rate
        .map_or((run.config.layers - 1, 0), |h| (h.layer, h.head));
    let Some(map) = report
        .attention
        .iter()
        .find(|m| m.layer == layer && m.head == head)
    else {
        return canvas_message(
            &dom.attention,
            &[&crate::training_message!("train-figure-no-attention-map")],
        );
    };
    let positions: Vec<String> = (0..map.length).map(|i| i.to_string()).collect();
    draw_matrix(
        &dom.attention,
        ctx.scratch,
        &map.weights,
        (map.length, map.length),
        Scale::Weights,
        (
            &crate::training_message!("train-axis-key-position"),
            &crate::training_message!("train-axis-query-position"),
        ),
        (Some(&positions), Some(&positions)),
    )?;
    let hit = hit_sentence(report, map, run.config.shift_k);
    write_attention_readout(dom, report, map, (layer, head), &hit);
    Ok(())
}

/// The menu lists the finished encodings (written again only when they changed).
fn list_encodings(dom: &TrainDom, finished: &[&EncodingReport]) -> Result<(), WebError> {
    let names: Vec<&str> = finished.iter().map(|r| r.encoding.link_name()).collect();
    let current: Vec<String> = (0..dom.attention_choice.length())
        .filter_map(|k| dom.attention_choice.item(k))
        .filter_map(|o| o.dyn_into::<HtmlOptionElement>().ok())
        .map(|o| o.value())
        .collect();
    if current != names {
        dom.attention_choice.set_inner_html("");
        for name in &names {
            let option = HtmlOptionElement::new_with_text_and_value(name, name)?;
            dom.attention_choice.add_with_html_option_element(&option)?;
        }
    }
    Ok(())
}

/// The report whose map is shown: the `chosen` encoding's where it has finished, else the one
/// whose head hits the offset most often.
fn shown_report<'a>(
    finished: &[&'a EncodingReport],
    chosen: Option<TrainEncoding>,
) -> Option<&'a EncodingReport> {
    let best = finished
        .iter()
        .max_by(|a, b| {
            let rate = |r: &&&EncodingReport| r.offset_hit_rate.map_or(-1.0, |h| h.rate);
            rate(a).total_cmp(&rate(b))
        })
        .copied();
    chosen
        .and_then(|e| finished.iter().find(|r| r.encoding == e).copied())
        .or(best)
}

/// What the shown head does with the key `k` places back: attends to it (how often, with what
/// weight) or spreads its weight like noise; empty when the run has no hit rate or the map no
/// such key.
fn hit_sentence(report: &EncodingReport, map: &AttentionMap, k: usize) -> String {
    match (report.offset_hit_rate, offset_weights(map, k)) {
        (Some(h), Some(w)) if w.back_is_largest => crate::training_message!(
            "train-attention-hit",
            k = k,
            share = points(h.rate),
            weight = format!("{:.2}", w.back)
        ),
        (Some(_), Some(w)) => crate::training_message!(
            "train-attention-noise",
            k = k,
            weight = format!("{:.3}", w.back),
            uniform = format!("{:.3}", w.uniform)
        ),
        _ => String::new(),
    }
}

/// The line under the map: whose head it is, on which example, and `hit`.
fn write_attention_readout(
    dom: &TrainDom,
    report: &EncodingReport,
    map: &AttentionMap,
    (layer, head): (usize, usize),
    hit: &str,
) {
    let tokens = report
        .example
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    dom::text(
        &dom.attention_readout,
        &crate::training_message!(
            "train-attention-readout",
            encoding = report.encoding.link_name(),
            layer = layer + 1,
            head = head + 1,
            seed = report.seed.to_string(),
            length = map.length,
            tokens = tokens,
            hit = hit
        ),
    );
}
