//! Shaw, Uszkoreit & Vaswani (2018): relative position representations. Each offset j − i,
//! clipped to [−k, k], has a learned key vector a^K and value vector a^V (2k + 1 rows each);
//! e_ij = x_iW^Q (x_jW^K + a^K_clip(j−i))ᵀ/√d. The naive form builds an L × L × d tensor of the
//! a^K rows; the Music Transformer's skewing (Huang et al. 2018) needs only L × d. CPU
//! (`math::shaw`) on both backends, on the attention panel's sentence.

use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{compute, no_tokens_message, offset_labels, readout, ShawPanelError, ShawStats};
use crate::web::dom;
use crate::web::error::WebError;
use crate::web::panels::family_charts::{draw_matrix, Scale};
use crate::web::panels::view::View;
use crate::web::panels::{canvas_message, Ctx};

fn render(ctx: &mut Ctx, dom: &ShawDom) -> Result<ShawStats, WebError> {
    let (p, l) = (ctx.params, ctx.settings);
    let tokens = l.tokens();
    let shaw = compute(
        &tokens,
        p.n,
        p.d,
        p.base,
        l.clip,
        l.seed,
        l.scale_embeddings,
    )
    .map_err(|error| match error {
        ShawPanelError::Shaw(error) => WebError::from(error),
        ShawPanelError::Math(error) => WebError::from(error),
    })?;
    let stats = shaw.stats;
    let (clip, d, n) = (stats.clip, stats.d, tokens.len());
    if ctx.draw {
        let table: Vec<f32> = shaw.layer.key_table.iter().map(|&v| v as f32).collect();
        let limit = table.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        draw_matrix(
            &dom.table,
            ctx.scratch,
            &table,
            (2 * clip + 1, d),
            Scale::Diverging(limit),
            (
                crate::message!("figure-shaw-table-x").as_str(),
                crate::message!("figure-shaw-table-y").as_str(),
            ),
            (None, Some(&offset_labels(clip))),
        )?;
        if n == 0 {
            canvas_message(&dom.logits, &no_tokens_message())?;
        } else {
            let values: Vec<f32> = stats.logits.iter().flatten().map(|&v| v as f32).collect();
            let limit = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            draw_matrix(
                &dom.logits,
                ctx.scratch,
                &values,
                (n, n),
                Scale::Diverging(limit),
                (
                    crate::message!("label-axis-key-j").as_str(),
                    crate::message!("label-axis-query-i").as_str(),
                ),
                (Some(&tokens), Some(&tokens)),
            )?;
        }
    }
    dom::text(&dom.readout, &readout(&stats));
    dom::text(&dom.takeaway, &super::takeaway::takeaway(&stats));
    Ok(stats)
}

crate::element_table! {
    pub struct ShawDom {
        takeaway: HtmlElement = "shaw-takeaway",
        logits: HtmlCanvasElement = "shaw-logits",
        table: HtmlCanvasElement = "shaw-table",
        readout: HtmlElement = "shaw-readout",
    }
}

/// The panel: its elements, the inputs it reads and its view ([`crate::web::panels::view`]).
pub static VIEW: View<ShawDom, ShawStats> = View {
    elements: ShawDom::mount,
    takeaway: |dom| &dom.takeaway,
    inputs: |ctx| {
        crate::web::panels::tokens_key(ctx)
            .with(ctx.params.n)
            .with(ctx.settings.clip)
            .with(ctx.settings.seed)
    },
    render,
    ms: |stats| &mut stats.ms,
};

crate::web::panels::view::mount_view!(VIEW);
