//! The settings of the sentence and of the panels that attend over it (attention, pipeline,
//! heads, order): the sentence and its valid length, whether and how position enters, √d, the
//! heads, the batch's lengths and the order panel's permutation.

use super::Row;
use crate::model::query::values::UrlName;
use crate::model::settings::controls::{batch_lens, heads_menu, valid_slider};
use crate::model::settings::menu_words::ENCODING_OPTIONS;
use crate::model::settings::read::{read_lens, read_permutation, read_text, read_valid};
use crate::model::settings::row::{
    field, field_of, Bound, Control, MenuOf, Shown, SliderOf, Write,
};
use crate::model::settings::*;

/// Their rows, in the order a link writes them.
pub(super) const ROWS: &[Row] = &[
    Row::own("text", read_text, |s| Some(s.text.clone()))
        .long(&["sentence"])
        .control(Control::LiveText("attn-text"))
        .view(&[
            field("text"),
            field_of("tokens", |s, _| Shown::Texts(s.tokens())),
        ])
        .doc(
            "the attention panels' sentence (at most 1000 characters; the first 64 words are used)",
        ),
    Row::own("valid", read_valid, |s| s.valid_len.map(|v| v.to_string()))
        .long(&["validLen"])
        .after_sentence()
        .slider("valid-range", "valid-number", SliderOf::Own(valid_slider))
        .words(
            Some("attention-valid-len-keys-it"),
            "<code>valid_len</code> <small>keys ≥ it are masked</small>",
            "valid_len, exact value",
        )
        .view(&[field_of("validLen", |s, _| {
            Shown::Maybe(s.effective_valid_len())
        })])
        .doc("valid_len of the sentence: keys at index ≥ valid_len are masked"),
    Row::switch(
        "pe",
        |s| s.positional_encoding,
        |s, on| {
            s.positional_encoding = on;
            // Turning position on again restores the chapter's P if no family was chosen.
            if on && s.encoding == Encoding::None {
                s.encoding = Encoding::Sinusoidal;
            }
        },
    )
    .long(&["positionalEncoding"])
    .control(Control::Check("attn-pe"))
    .check_words(
        "attention-add-positional-encoding-p",
        "add positional encoding <var>P</var>",
    )
    .view(&[field("positionalEncoding")])
    .doc("add position to the embeddings (`pe=0` is `enc=none`)"),
    Row::switch(
        "sqrtd",
        |s| s.scale_embeddings,
        |s, on| s.scale_embeddings = on,
    )
    .long(&["scaleEmbeddings"])
    .control(Control::Check("attn-scale"))
    .check_words(
        "attention-scale-embeddings-by-d",
        "scale embeddings by √<var>d</var>",
    )
    .view(&[field("scaleEmbeddings")])
    .doc(
        "scale the embeddings by √d (`sqrtd` is the only key for it: `scale` is the \
        context-extension factor)",
    ),
    // The link keeps the family chosen while `pe` is off; the page shows the one in use (`none`).
    Row::name(
        "enc",
        &[
            "sinusoidal",
            "rope",
            "alibi",
            "t5",
            "shaw",
            "learned",
            "none",
        ],
        |s| s.encoding_in_use().to_query(),
        |s, name| {
            let Some(encoding) = Encoding::from_query(name) else {
                return false;
            };
            s.encoding = encoding;
            s.positional_encoding = encoding != Encoding::None;
            true
        },
    )
    .long(&["encoding"])
    .written(Write::Own(|s| {
        (s.encoding != Encoding::Sinusoidal).then(|| s.encoding.to_query().to_string())
    }))
    .control(Control::Menu("attn-enc", MenuOf::Page))
    .menu_words(
        "attention-position-enters-as",
        "position enters as",
        ENCODING_OPTIONS,
    )
    .view(&[field("encoding")])
    .doc(
        "how position enters the attention panels (weights, heads, pipeline, order): \
        `sinusoidal` (default, P added), `rope` (each head's q and k rotated by i·θ_j), \
        `alibi` (m_h·(j − i) added to the scores, with the causal mask ALiBi was defined \
        for), `t5` (a seeded bias per T5 bucket of j − i), `shaw` (seeded a^K, a^V clipped \
        at `clip`), `learned` (a seeded N(0, 0.02²) table E of `lmax` rows added), `none`",
    ),
    Row::integer_to(
        "heads",
        Bound::Fixed(1),
        Bound::Of(|s| s.d() as i64),
        |s| s.heads.map(|h| h as i64),
        |s, h| s.heads = Some(h as usize),
    )
    .control(Control::Menu("heads-select", MenuOf::Own(heads_menu)))
    .state_menu_words(
        None,
        r#"<span data-l10n-id="heads-heads">heads</span> <small data-l10n-id="heads-divisors-of-d">(divisors of <var>d</var>)</small>"#,
    )
    .view(&[field_of("heads", |s, _| Shown::Count(s.heads()))])
    .doc("number of heads (a divisor of d; otherwise the nearest one, with a notice)"),
    Row::own("lens", read_lens, |s| {
        Some(format!("{},{}", s.batch_lens[0], s.batch_lens[1]))
    })
    .long(&["validLens"])
    .control(Control::Lens(["lens0", "lens1"], batch_lens))
    .view(&[field_of("validLens", |s, _| {
        Shown::Counts(s.batch_lens.to_vec())
    })])
    .doc("valid_lens of the multi-head batch example, e.g. `3,2`"),
    Row::own("perm", read_permutation, |s| {
        Some(permutation_text(s.permutation))
    })
    .long(&["permutation"])
    .view(&[field("permutation")])
    .doc("the order panel's permutation: `none`, `swap` or a shuffle seed"),
];
