//! The settings of the chapter's own figures: the similarity panel (position i, the largest
//! offset k, its view), the complexity panel (its own n and d, the CNN's kernel size) and the
//! add-vs-concatenate panel (its two tokens).

use super::{last_token, set_name, Row};
use crate::model::query::values::UrlName;
use crate::model::settings::controls::{complexity_slider, kernel_slider, token_menu};
use crate::model::settings::menu_words::SIMILARITY_VIEW_OPTIONS;
use crate::model::settings::row::{field, field_of, Bound, Control, MenuOf, Shown, SliderOf};
use crate::model::settings::*;

/// Their rows, in the order a link writes them.
pub(super) const ROWS: &[Row] = &[
    Row::integer(
        "simi",
        0,
        SIM_POSITION_MAX as i64,
        |s| Some(s.sim_position as i64),
        |s, i| s.sim_position = i as usize,
    )
    .long(&["simPosition"])
    .slider(
        "simi-range",
        "simi-number",
        SliderOf::Steps(|i| crate::message!("label-slider-position-i", value = i)),
    )
    .words(
        None,
        "<span data-l10n-id=\"similarity-position-i\">position <var>i</var></span> <small \
        data-l10n-id=\"similarity-of-pi-pi-k\">of p<sub>i</sub>·p<sub>i+k</sub></small>",
        "position i, exact value",
    )
    .view(&[field("simPosition")])
    .doc("similarity panel: position i"),
    Row::integer(
        "simk",
        1,
        SIM_MAX_OFFSET_LIMIT as i64,
        |s| Some(s.sim_max_offset as i64),
        |s, k| s.sim_max_offset = k as usize,
    )
    .long(&["simMaxOffset"])
    .slider(
        "simk-range",
        "simk-number",
        SliderOf::Steps(|k| crate::message!("label-slider-largest-offset", value = k)),
    )
    .words(
        Some("similarity-largest-offset-k"),
        "largest offset <var>k</var>",
        "largest offset k, exact value",
    )
    .view(&[field("simMaxOffset")])
    .doc("similarity panel: the largest offset k"),
    Row::name(
        "simview",
        &["gram", "dist"],
        |s| s.sim_view.to_query(),
        |s, name| set_name(&mut s.sim_view, name),
    )
    .long(&["simView"])
    .control(Control::Menu("simview-select", MenuOf::Page))
    .menu_words("similarity-heatmap", "heatmap", SIMILARITY_VIEW_OPTIONS)
    .view(&[field("simView")])
    .doc("similarity panel: the heatmap's view"),
    // The complexity panel's n and d follow the global ones until set.
    Row::integer(
        "cn",
        1,
        COMPLEXITY_N_MAX as i64,
        |s| s.complexity_n.map(|n| n as i64),
        |s, n| s.complexity_n = Some(n as usize),
    )
    .long(&["complexityN"])
    .slider(
        "cn-range",
        "cn-number",
        SliderOf::Own(complexity_slider::<0>),
    )
    .words(
        Some("complexity-sequence-length-n-this"),
        "sequence length <var>n</var> <small>(this panel)</small>",
        "this panel's sequence length n, exact value",
    )
    .view(&[field_of("complexityN", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).0)
    })])
    .doc("complexity panel: its own n (absent: the global n)"),
    Row::integer(
        "cd",
        1,
        COMPLEXITY_D_MAX as i64,
        |s| s.complexity_d.map(|d| d as i64),
        |s, d| s.complexity_d = Some(d as usize),
    )
    .long(&["complexityD"])
    .slider(
        "cd-range",
        "cd-number",
        SliderOf::Own(complexity_slider::<1>),
    )
    .words(
        Some("complexity-width-d-this-panel"),
        "width <var>d</var> <small>(this panel)</small>",
        "this panel's width d, exact value",
    )
    .view(&[field_of("complexityD", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).1)
    })])
    .doc("complexity panel: its own d (absent: the global d)"),
    Row::integer(
        "k",
        1,
        KERNEL_MAX as i64,
        |s| Some(s.kernel as i64),
        |s, k| s.kernel = k as usize,
    )
    .long(&["kernel"])
    .slider("k-range", "k-number", SliderOf::Own(kernel_slider))
    .words(
        Some("complexity-kernel-k"),
        "kernel <var>k</var>",
        "kernel size k, exact value",
    )
    .view(&[field_of("kernel", |s, p| {
        Shown::Count(s.complexity(p.n, p.d).2)
    })])
    .doc("complexity panel: the CNN's kernel size"),
    Row::integer_to(
        "ti",
        Bound::Fixed(0),
        Bound::Of(last_token),
        |s| Some(s.token_pair.0 as i64),
        |s, i| s.token_pair.0 = i as usize,
    )
    .long(&["tokenI"])
    .after_sentence()
    .control(Control::Menu("ti-select", MenuOf::Own(token_menu::<0>)))
    .state_menu_words(Some("scaling-token-i"), "token <var>i</var>")
    .view(&[field("tokenI")])
    .doc("add-vs-concatenate panel: the first of its two tokens"),
    Row::integer_to(
        "tj",
        Bound::Fixed(0),
        Bound::Of(last_token),
        |s| Some(s.token_pair.1 as i64),
        |s, j| s.token_pair.1 = j as usize,
    )
    .long(&["tokenJ"])
    .after_sentence()
    .control(Control::Menu("tj-select", MenuOf::Own(token_menu::<1>)))
    .state_menu_words(Some("scaling-token-j"), "token <var>j</var>")
    .view(&[field("tokenJ")])
    .doc("add-vs-concatenate panel: the second of its two tokens"),
];
