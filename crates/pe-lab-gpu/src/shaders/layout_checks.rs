//! Every struct the host writes into a uniform or storage buffer against the WGSL struct that reads
//! it, by naga's layouter: the same size, the same alignment (or, where WGSL needs more for a vector
//! member, a multiple of Rust's with the size a multiple of it: the bytes are copied, never
//! borrowed), and every named field at the same offset (padding fields, `_…`, are covered by the
//! size). Then the constants both sides use. What used to be comments asking to keep the two
//! in step is checked here.

use core::mem::{align_of, offset_of, size_of};

use naga::proc::Layouter;

use super::{every_module, REDUCE_LANES};
use crate::train::kernels::{
    EmbedOp, LossOp, MatmulOp, NormOp, RopeOp, SoftmaxOp, StepUniform, ACCUMULATE, ADDEND, BIAS,
    MASK, NO_TARGET_WORD, RELU,
};
use crate::train::plan::{SPLIT_LANES, WORKGROUP};
use crate::{alibi_scores, attention, columns, encoding, gram, heatmap, rope_scores, stats};

/// A Rust struct's size, alignment and named fields' offsets.
struct RustLayout {
    name: &'static str,
    size: usize,
    align: usize,
    fields: Vec<(&'static str, usize)>,
}

macro_rules! rust_layout {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        RustLayout {
            name: stringify!($ty),
            size: size_of::<$ty>(),
            align: align_of::<$ty>(),
            fields: vec![$((stringify!($field), offset_of!($ty, $field))),*],
        }
    };
}

/// The module labelled `label` (a tiled kernel: its first variant), parsed.
fn parse(label: &str) -> naga::Module {
    let module = every_module()
        .into_iter()
        .find(|m| m.label == label || m.label.starts_with(&format!("{label} (tile")))
        .unwrap_or_else(|| panic!("no module {label}"));
    naga::front::wgsl::parse_str(&module.source)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(&module.source)))
}

/// The differences between WGSL struct `wgsl_name` of `module` and `rust`, if any.
fn compare(label: &str, module: &naga::Module, wgsl_name: &str, rust: &RustLayout) -> Vec<String> {
    let mut layouter = Layouter::default();
    layouter
        .update(module.to_ctx())
        .unwrap_or_else(|e| panic!("{label}: layout: {e}"));
    let Some((handle, ty)) = module
        .types
        .iter()
        .find(|(_, ty)| ty.name.as_deref() == Some(wgsl_name))
    else {
        return vec![format!("{label}: no struct {wgsl_name}")];
    };
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        return vec![format!("{label}: {wgsl_name} is not a struct")];
    };
    let what = format!("{label}: {wgsl_name} ↔ {}", rust.name);
    let mut errors = Vec::new();
    let size = layouter[handle].size as usize;
    let align: usize = layouter[handle]
        .alignment
        .to_string()
        .parse()
        .expect("alignment");
    if size != rust.size {
        errors.push(format!(
            "{what}: {size} bytes in WGSL, {} in Rust",
            rust.size
        ));
    }
    if align != rust.align && (align % rust.align != 0 || size % align != 0) {
        errors.push(format!(
            "{what}: aligned to {align} in WGSL, {} in Rust",
            rust.align
        ));
    }
    let named = |name: &str| !name.starts_with('_');
    for member in members {
        let name = member.name.as_deref().unwrap_or("");
        if !named(name) {
            continue;
        }
        match rust.fields.iter().find(|(field, _)| *field == name) {
            Some(&(_, offset)) if offset == member.offset as usize => {}
            Some(&(_, offset)) => errors.push(format!(
                "{what}: {name} at {} in WGSL, {offset} in Rust",
                member.offset
            )),
            None => errors.push(format!("{what}: {name} is not a Rust field")),
        }
    }
    for (field, _) in rust.fields.iter().filter(|(f, _)| named(f)) {
        if !members.iter().any(|m| m.name.as_deref() == Some(field)) {
            errors.push(format!("{what}: {field} is not a WGSL member"));
        }
    }
    errors
}

/// The value of `const name` in `module` (u32 or i32 literals).
fn constant(module: &naga::Module, name: &str) -> Option<i64> {
    let (_, c) = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))?;
    match module.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => Some(v.into()),
        naga::Expression::Literal(naga::Literal::I32(v)) => Some(v.into()),
        naga::Expression::Literal(naga::Literal::AbstractInt(v)) => Some(v),
        _ => None,
    }
}

#[test]
fn every_shared_struct_has_the_same_layout_in_rust_and_wgsl() {
    let checks = [
        (
            "alibi scores",
            "Params",
            rust_layout!(alibi_scores::AlibiParams { n, d, scale, slope }),
        ),
        (
            "attention",
            "Params",
            rust_layout!(attention::AttentionParams {
                nq,
                nk,
                d,
                heads,
                head_dim,
                scale
            }),
        ),
        (
            "columns",
            "Params",
            rust_layout!(columns::ColumnsParams {
                n,
                d,
                count,
                columns
            }),
        ),
        (
            "encoding",
            "Params",
            rust_layout!(encoding::EncodingParams { n, d, pairs, first }),
        ),
        ("gram", "Params", rust_layout!(gram::GramParams { n, d })),
        (
            "heatmap",
            "Params",
            rust_layout!(heatmap::HeatmapParams {
                rows,
                columns,
                out_width,
                out_height,
                low,
                high,
                colormap
            }),
        ),
        (
            "rope scores",
            "Params",
            rust_layout!(rope_scores::RopeParams { n, d, pairs, scale }),
        ),
        (
            "rope rotate",
            "Params",
            rust_layout!(rope_scores::RopeParams { n, d, pairs, scale }),
        ),
        (
            "stats",
            "Params",
            rust_layout!(stats::StatsParams {
                n,
                d,
                pairs,
                delta,
                start,
                end
            }),
        ),
        (
            "train matmul",
            "Op",
            rust_layout!(MatmulOp {
                a,
                a_row,
                a_col,
                a_outer,
                a_inner,
                b,
                b_row,
                b_col,
                b_outer,
                b_inner,
                o,
                o_row,
                o_outer,
                o_inner,
                m,
                n,
                k,
                inner,
                flags,
                bias,
                addend,
                mask
            }),
        ),
        (
            "train embed",
            "Op",
            rust_layout!(EmbedOp {
                rows,
                n,
                d,
                token_width,
                table,
                table_grads,
                position,
                position_grads,
                position_rows,
                mode,
                x,
                vocab,
                tokens,
                conv,
                conv_grads,
                embedded_grads
            }),
        ),
        (
            "train rope",
            "Op",
            rust_layout!(RopeOp {
                rows,
                n,
                d,
                head_width,
                cos,
                sin,
                data,
                blocks,
                stride,
                inverse
            }),
        ),
        (
            "train norm",
            "Op",
            rust_layout!(NormOp {
                rows,
                d,
                x,
                hat,
                inverse_std,
                gain,
                bias,
                gain_grads,
                bias_grads,
                epsilon
            }),
        ),
        ("train attention", "Op", softmax_op()),
        ("train shaw", "Op", softmax_op()),
        (
            "train loss",
            "Op",
            rust_layout!(LossOp {
                rows,
                classes,
                logits,
                row_loss,
                targets,
                losses,
                params,
                grads,
                first,
                second,
                count
            }),
        ),
        (
            "train loss",
            "Step",
            rust_layout!(StepUniform {
                step_size,
                inverse_correction,
                beta1,
                beta2,
                one_minus_beta1,
                one_minus_beta2,
                epsilon,
                inverse_count,
                count,
                loss_slot
            }),
        ),
    ];
    // Pushed to only with the `minilm` feature.
    #[cfg_attr(not(feature = "minilm"), allow(unused_mut))]
    let mut checks = Vec::from(checks);
    #[cfg(feature = "minilm")]
    checks.push((
        "minilm",
        "Op",
        rust_layout!(crate::minilm::EncoderOp {
            input,
            weight,
            bias,
            output,
            other,
            weights,
            rows,
            inputs,
            outputs,
            heads,
            head_size,
            flags,
            scale
        }),
    ));
    let mut errors = Vec::new();
    for (label, wgsl_name, rust) in &checks {
        errors.extend(compare(label, &parse(label), wgsl_name, rust));
    }
    // The stats totals are read back as words (stats::read_totals: error bits, min key, max key)
    // from a buffer of INITIAL_TOTALS.
    let module = parse("stats");
    let words = RustLayout {
        name: "stats::INITIAL_TOTALS",
        size: size_of_val(&stats::INITIAL_TOTALS),
        align: 4,
        fields: vec![
            ("max_error_bits", 0),
            ("min_key", 4),
            ("max_key", 8),
            ("_pad", 12),
        ],
    };
    errors.extend(
        compare("stats", &module, "Totals", &words)
            .into_iter()
            .filter(|e| !e.contains("bytes in WGSL") && !e.contains("_pad")),
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

fn softmax_op() -> RustLayout {
    rust_layout!(SoftmaxOp {
        rows,
        n,
        heads,
        causal,
        weights,
        grads,
        bias_mode,
        bias,
        table_length,
        scale,
        bias_grads,
        buckets,
        offset_rows,
        q,
        attended,
        q_grads,
        values,
        value_grads,
        d,
        head_width
    })
}

#[test]
fn the_constants_both_sides_use_agree() {
    let lanes = i64::from(REDUCE_LANES);
    let train_flags = [
        ("ACCUMULATE", ACCUMULATE),
        ("BIAS", BIAS),
        ("ADDEND", ADDEND),
        ("RELU", RELU),
        ("MASK", MASK),
    ];
    let mut checks: Vec<(&str, &str, i64)> = vec![
        (
            "encoding",
            "WORKGROUP_PAIRS",
            encoding::WORKGROUP_PAIRS.into(),
        ),
        (
            "encoding",
            "MAX_EXACT_POSITIONS",
            encoding::MAX_EXACT_POSITIONS as i64,
        ),
        (
            "stats",
            "WORKGROUP_PAIRS",
            stats::STATS_WORKGROUP_PAIRS.into(),
        ),
        ("columns", "WORKGROUP", columns::COLUMNS_WORKGROUP.into()),
        ("columns", "MAX_COLUMNS", columns::MAX_GATHER_COLUMNS as i64),
        (
            "rope rotate",
            "ROTATE_WORKGROUP",
            rope_scores::ROPE_ROTATE_WORKGROUP.into(),
        ),
        (
            "train embed",
            "CONV_KERNEL",
            pe_lab_train::encodings::CONV_KERNEL as i64,
        ),
        ("train loss", "NO_TARGET", NO_TARGET_WORD.into()),
        ("attention", "REDUCE_LANES", lanes),
        ("train matmul", "REDUCE_LANES", SPLIT_LANES as i64),
    ];
    checks.extend(train_flags.map(|(name, value)| ("train matmul", name, i64::from(value))));
    #[cfg(feature = "minilm")]
    checks.extend([
        ("minilm", "REDUCE_LANES", lanes),
        ("minilm", "GELU", crate::minilm::GELU.into()),
        ("minilm", "RESIDUAL", crate::minilm::RESIDUAL.into()),
        ("minilm", "LINEAR_ROWS", crate::minilm::LINEAR_ROWS.into()),
    ]);
    let mut errors = Vec::new();
    for (label, name, rust) in checks {
        let wgsl = constant(&parse(label), name);
        if wgsl != Some(rust) {
            errors.push(format!(
                "{label}: {name} = {wgsl:?} in WGSL, {rust} in Rust"
            ));
        }
    }
    // The training kernels' workgroups: 64 invocations (plan.rs's WORKGROUP, the `64u` of
    // `invocation()`) or REDUCE_LANES (its SPLIT_LANES).
    for module in every_module()
        .iter()
        .filter(|m| m.label.starts_with("train"))
    {
        let parsed = parse(&module.label);
        for entry in &parsed.entry_points {
            let width = entry.workgroup_size[0] as usize;
            if width != WORKGROUP && width != SPLIT_LANES {
                errors.push(format!(
                    "{}: {} has {width} lanes",
                    module.label, entry.name
                ));
            }
        }
    }
    assert_eq!(WORKGROUP, 64, "invocation() in shared/train_bindings.wgsl");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
