//! The options of the panel settings' menus, as the page shows them: (value, message id, English
//! label) each, the values in the order of their row's names (`settings::table`; the build
//! writes each menu from its row, `tests/page_tables.rs` holds the values to the row's names).

/// The attention panels' position families (`enc`).
pub const ENCODING_OPTIONS: &[(&str, &str, &str)] = &[
    (
        "sinusoidal",
        "attn-enc-sinusoidal-p-added-the",
        "sinusoidal P added (the chapter)",
    ),
    ("rope", "attn-enc-rope-q-k-rotated", "RoPE: q, k rotated"),
    (
        "alibi",
        "attn-enc-alibi-linear-bias-causal",
        "ALiBi: linear bias, causal",
    ),
    ("t5", "attn-enc-t5-bias-per-bucket", "T5: bias per bucket"),
    (
        "shaw",
        "attn-enc-shaw-relative-embeddings",
        "Shaw: relative embeddings",
    ),
    (
        "learned",
        "attn-enc-learned-table-e-added",
        "learned table E added",
    ),
    ("none", "attn-enc-none", "none"),
];

/// The attention layer's projections (`proj`).
pub const PROJECTION_OPTIONS: &[(&str, &str, &str)] = &[
    (
        "random",
        "attn-proj-random-an-untrained-layer",
        "random (an untrained layer)",
    ),
    ("identity", "attn-proj-none-q-k-v", "none: Q = K = V = Z"),
    (
        "offset",
        "attn-proj-offset-head-attend-to",
        "offset head: attend to i + δ",
    ),
];

/// The similarity panel's heatmap (`simview`).
pub const SIMILARITY_VIEW_OPTIONS: &[(&str, &str, &str)] = &[
    ("gram", "simview-select-gram-p-p", "Gram P·Pᵀ"),
    ("dist", "simview-select-distances", "distances"),
];

/// Where the stacking panel adds P (`inject`).
pub const INJECTION_OPTIONS: &[(&str, &str, &str)] = &[
    (
        "once",
        "stack-inject-once-to-the-input",
        "once, to the input",
    ),
    (
        "every",
        "stack-inject-again-after-every-layer",
        "again after every layer",
    ),
    ("none", "stack-inject-never", "never"),
];
