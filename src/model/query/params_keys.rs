//! The encoding parameters' keys (`d`, `n`, `base`, `delta`, `pair`, `pos`, `cols`, `textbook`,
//! `index`): read from a link, a field or `peLab.set` into [`Params`], and written back.

use super::values::{parse_number, shorten};
use crate::model::controls::scales::{
    base_slider, d_slider, delta_slider, n_slider, pair_slider, pos_slider,
};
use crate::model::params::{
    format_base, Limits, Params, BASE_MAX, BASE_MIN, CPU_LIMITS, D_MIN, MAX_CURVES, N_MIN,
    WIDEST_LIMITS,
};
use crate::model::present::column_labels;
use crate::model::settings::row::{Bound, Control, Setting, SliderOf, TextOf, Write};
use crate::model::settings::rows::{keys_of, row_named, written_pairs};

/// A row of the parameters' table.
type Row = Setting<Params>;

/// A global slider's label: its words, then the note the bar shows where the section being read
/// does not use the slider.
macro_rules! global_label {
    ($words:literal) => {
        concat!(
            $words,
            r#"<small class="unused-note" data-l10n-name="unused">not used here</small>"#
        )
    };
}

/// Every encoding parameter, in the order a link writes them: the values in use, not the
/// requests, so that a link reproduces what is on screen without a notice. δ, j, i and the
/// columns depend on n and d: their keys set the request, and [`Params::clamp`] derives the
/// values in use from it. `textbook` and `index` are written only when on: a link without them
/// is the exact P counted from 0.
pub const PARAM_ROWS: [Row; 9] = [
    Row::integer_to(
        "d",
        Bound::Fixed(D_MIN as i64),
        Bound::Of(|p| p.limits.d_max as i64),
        |p| Some(p.d as i64),
        |p, d| p.d = d as usize,
    )
    .slider("d-range", "d-number", SliderOf::Own(d_slider))
    .words(
        Some("controls-d-encoding-dimension"),
        global_label!("<var>d</var> <small>encoding dimension</small>"),
        "d, exact value",
    ),
    Row::integer_to(
        "n",
        Bound::Fixed(N_MIN as i64),
        Bound::Of(|p| p.limits.n_max as i64),
        |p| Some(p.n as i64),
        |p, n| p.n = n as usize,
    )
    .slider("n-range", "n-number", SliderOf::Own(n_slider))
    .words(
        Some("controls-n-positions-log-scale"),
        global_label!("<var>n</var> <small>positions, log scale</small>"),
        "n, exact value",
    ),
    Row::own("base", read_base, |p| Some(format_base(p.base)))
        .slider("base-range", "base-number", SliderOf::Own(base_slider))
        .words(
            Some("controls-base-log-scale"),
            global_label!("base <small>log scale</small>"),
            "base, exact value",
        ),
    Row::integer_to(
        "delta",
        Bound::Of(|p| -(p.limits.n_max as i64)),
        Bound::Of(|p| p.limits.n_max as i64),
        |p| Some(p.delta),
        |p, delta| p.requested.delta = delta,
    )
    .slider("delta-range", "delta-number", SliderOf::Own(delta_slider))
    .words(
        Some("controls-position-offset"),
        global_label!("<var>δ</var> <small>position offset</small>"),
        "delta, exact value",
    ),
    Row::integer_to(
        "pair",
        Bound::Fixed(0),
        Bound::Of(|p| p.limits.d_max as i64),
        |p| Some(p.pair as i64),
        |p, pair| p.requested.pair = pair as usize,
    )
    .slider("pair-range", "pair-number", SliderOf::Own(pair_slider))
    .words(
        Some("projection-pair-j"),
        "pair <var>j</var>",
        "pair j, exact value",
    ),
    Row::integer_to(
        "pos",
        Bound::Fixed(0),
        Bound::Of(|p| p.limits.n_max as i64),
        |p| Some(p.position as i64),
        |p, i| p.requested.position = i as usize,
    )
    .long(&["position"])
    .slider("pos-range", "pos-number", SliderOf::Own(pos_slider))
    .words(
        Some("projection-position-i"),
        "position <var>i</var>",
        "position i, exact value",
    ),
    Row::own(
        "cols",
        |p, value, notices| p.requested.columns = parse_columns(value, notices),
        |p| {
            let columns: Vec<String> = p.columns.iter().map(|c| c.to_string()).collect();
            Some(columns.join(","))
        },
    )
    .long(&["columns"])
    .control(Control::Text(
        "cols-input",
        // As the reader counts them: "6, 7, 8, 9", from 1 with `index=1`.
        TextOf::Own(|p| column_labels(&p.columns, p.first_position)),
    )),
    Row::switch("textbook", |p| p.textbook, |p, on| p.textbook = on)
        .written(Write::Changed)
        .control(Control::Check("textbook-check"))
        .check_words(
            "projection-textbook-float32-d2l-s",
            "textbook float32 (d2l's PyTorch/MXNet code)",
        ),
    Row::integer(
        "index",
        0,
        1,
        |p| Some(p.first_position as i64),
        |p, first| p.first_position = first as usize,
    )
    .long(&["first_position"])
    .written(Write::Changed)
    .control(Control::Check("index-check"))
    .check_words(
        "heatmap-count-positions-and-columns",
        "count positions and columns from 1, as the Julia code does \
        (<code>collect(1:max_len)</code>)",
    ),
];

/// The URL/API names of the parameters, in the order they are written to a link.
pub const KEYS: [&str; PARAM_ROWS.len()] = keys_of(&PARAM_ROWS);

/// Whether `key` names an encoding parameter: a key of [`KEYS`] or one of its long names.
pub fn is_key(key: &str) -> bool {
    row_named(&PARAM_ROWS, key).is_some()
}

impl Params {
    /// Parses `key=value` pairs (a URL query), starting from the defaults. Unknown keys are ignored
    /// (a course page may add its own). Returns the clamped state and one notice per correction.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Params, Vec<String>) {
        Params::from_pairs_with(CPU_LIMITS, pairs)
    }

    /// [`Params::from_pairs`] under the given backend limits.
    pub fn from_pairs_with<'a>(
        limits: Limits,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (Params, Vec<String>) {
        let mut params = Params {
            limits,
            ..Params::default()
        };
        let mut notices = Vec::new();
        for (key, value) in pairs {
            if let Some(row) = row_named(&PARAM_ROWS, key) {
                row.read(&mut params, value, &mut notices);
            }
        }
        notices.extend(params.clamp());
        (params, notices)
    }

    /// Applies one textual update and clamps the whole state. Unknown keys are reported.
    pub fn update(&mut self, key: &str, value: &str) -> Vec<String> {
        self.update_all([(key, value)])
    }

    /// Applies textual updates in order, then clamps the whole state once, so that a request
    /// still not met is said once, not once per key. Unknown keys are reported.
    pub fn update_all<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<String> {
        let mut notices = Vec::new();
        for (key, value) in pairs {
            match row_named(&PARAM_ROWS, key) {
                Some(row) => row.read(self, value, &mut notices),
                None => notices.push(crate::message!("notice-unknown-key", key = key)),
            }
        }
        notices.extend(self.clamp());
        notices
    }
}

/// The parameters as link pairs, in the order they are written.
pub fn params_pairs(params: &Params) -> Vec<(&'static str, String)> {
    written_pairs(&PARAM_ROWS, params, &Params::default())
}

/// The base: any finite number, clamped into its range with a notice that writes the largest
/// base as `1e8`.
fn read_base(params: &mut Params, value: &str, notices: &mut Vec<String>) {
    if let Some(v) = parse_number("base", value, notices) {
        let clamped = v.clamp(BASE_MIN, BASE_MAX);
        if clamped != v {
            notices.push(crate::message!(
                "notice-base-outside",
                value = value,
                min = BASE_MIN.to_string(),
                max = format!("{BASE_MAX:e}"),
                used = clamped.to_string()
            ));
        }
        params.base = clamped;
    }
}

fn parse_columns(value: &str, notices: &mut Vec<String>) -> Vec<usize> {
    let mut columns = Vec::new();
    for part in value
        .split([',', ' ', ';'])
        .filter(|s| !s.trim().is_empty())
    {
        match part.trim().parse::<usize>() {
            Ok(c) if c < WIDEST_LIMITS.d_max => {
                if !columns.contains(&c) {
                    columns.push(c);
                }
            }
            _ => notices.push(crate::message!(
                "notice-column-not-an-index",
                value = shorten(part)
            )),
        }
    }
    if columns.len() > MAX_CURVES {
        notices.push(crate::message!(
            "notice-too-many-curves",
            limit = MAX_CURVES
        ));
        columns.truncate(MAX_CURVES);
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::params::{
        base_from_slider, slider_from_base, DEFAULT_BASE, DEFAULT_DELTA, D_MAX, GPU_LIMITS,
    };

    /// The parameters' part of a link, unencoded (the commas of `cols` stay commas).
    fn query(p: &Params) -> String {
        let pairs: Vec<String> = params_pairs(p)
            .into_iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        pairs.join("&")
    }

    #[test]
    fn untrusted_text_is_shortened_to_one_line() {
        assert_eq!(shorten("abc"), "abc");
        assert_eq!(shorten("a\nb\tc"), "a b c");
        let long = "x".repeat(30);
        assert_eq!(shorten(&long), format!("{}…", "x".repeat(24)));
        assert_eq!(shorten(&"y".repeat(24)), "y".repeat(24));
    }

    fn parse(query: &str) -> (Params, Vec<String>) {
        Params::from_pairs(query.split('&').filter_map(|kv| kv.split_once('=')))
    }

    #[test]
    fn defaults_are_the_chapter_figure() {
        let (p, notices) = parse("");
        assert_eq!(p, Params::default());
        assert!(notices.is_empty());
        assert_eq!(
            query(&p),
            "d=32&n=60&base=10000&delta=1&pair=3&pos=0&cols=6,7,8,9"
        );
    }

    #[test]
    fn a_link_round_trips() {
        let (p, _) = parse("d=33&n=7&base=250&delta=-3&pair=5&pos=4&cols=0,1,32");
        let (q, notices) = parse(&query(&p));
        assert_eq!(p, q);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(
            (p.d, p.n, p.base, p.delta, p.pair, p.position),
            (33, 7, 250.0, -3, 5, 4)
        );
    }

    #[test]
    fn bad_values_are_clamped_with_a_notice() {
        for (query, check) in [
            ("d=0", (|p: &Params| p.d == 1) as fn(&Params) -> bool),
            ("d=99999999", |p| p.d == D_MAX),
            ("n=-5", |p| p.n == 1),
            ("base=abc", |p| p.base == DEFAULT_BASE),
            ("base=1", |p| p.base == BASE_MIN),
            ("base=1e300", |p| p.base == BASE_MAX),
            ("base=inf", |p| p.base == DEFAULT_BASE),
            ("delta=NaN", |p| p.delta == DEFAULT_DELTA),
            ("delta=500", |p| p.delta == 59),
            ("d=2.5", |p| p.d == 3),
            ("cols=x,1000,5", |p| p.columns == vec![5]),
        ] {
            let (p, notices) = parse(query);
            assert!(check(&p), "{query}: {p:?}");
            assert!(!notices.is_empty(), "{query} gave no notice");
        }
    }

    #[test]
    fn dependent_values_follow_n_and_d() {
        let (p, notices) = parse("n=1&delta=5&d=1");
        assert_eq!((p.n, p.delta, p.position, p.pair), (1, 0, 0, 0));
        assert_eq!(p.columns, vec![0]);
        assert!(!p.has_complete_pair());
        assert!(notices.iter().any(|n| n.contains("δ")));
        let (p, _) = parse("d=8");
        assert_eq!(p.columns, vec![6, 7]);
        assert_eq!(p.pair, 3);
        let (p, _) = parse("d=4");
        assert_eq!(p.columns, vec![0, 1, 2, 3]);
        assert_eq!(p.pair, 1);
        let (p, _) = parse("n=10&delta=-4&pos=1");
        assert_eq!(p.position, 4, "i + δ must be a position");
    }

    #[test]
    fn updates_clamp_and_report_unknown_keys() {
        let mut p = Params::default();
        assert!(p.update("n", "5").is_empty());
        assert_eq!(p.n, 5);
        assert!(!p.update("colour", "red").is_empty());
        assert!(p.update("base", "2").is_empty());
        assert_eq!(p.base, 2.0);
    }

    #[test]
    fn limits_follow_the_backend() {
        let (p, notices) = Params::from_pairs_with(GPU_LIMITS, [("n", "4096"), ("d", "2048")]);
        assert_eq!((p.n, p.d), (4096, 2048));
        assert!(notices.is_empty());
        let (p, _) = Params::from_pairs_with(GPU_LIMITS, [("n", "99999")]);
        assert_eq!(p.n, 4096);
        let mut p = p;
        let notices = p.set_limits(CPU_LIMITS);
        assert_eq!(p.n, CPU_LIMITS.n_max);
        assert!(
            notices
                .iter()
                .any(|m| m.contains("up to d = 1024, n = 2048")),
            "{notices:?}"
        );
        assert!(p.set_limits(GPU_LIMITS).is_empty());
        assert_eq!(p.n, CPU_LIMITS.n_max, "widening the limits changes nothing");
    }

    #[test]
    fn slider_base_lands_on_round_numbers() {
        assert_eq!(base_from_slider(4.0), 10000.0);
        assert_eq!(base_from_slider(slider_from_base(10000.0)), 10000.0);
        assert_eq!(base_from_slider(0.0), BASE_MIN);
        assert_eq!(base_from_slider(9.0), BASE_MAX);
        assert_eq!(base_from_slider(2.5), 316.0);
        assert_eq!(format_base(316.0), "316");
    }

    #[test]
    fn textbook_and_index_are_switches_written_only_when_on() {
        let (p, notices) = parse("textbook=1&index=1");
        assert!(notices.is_empty(), "{notices:?}");
        assert!(p.textbook);
        assert_eq!(p.first_position, 1);
        assert!(query(&p).ends_with("&textbook=1&index=1"));
        let (q, _) = parse(&query(&p));
        // The same view; only the request differs (position 0, shown as 1, the first one).
        assert!(p.same_in_use(&q), "{p:?} {q:?}");
        assert_eq!(query(&p), query(&q));
        assert!(!query(&Params::default()).contains("textbook"));
        assert!(!query(&Params::default()).contains("index"));
        for (query, textbook, first) in [
            ("textbook=true", true, 0),
            ("textbook=0", false, 0),
            ("textbook=maybe", false, 0),
            ("index=0", false, 0),
            ("index=2", false, 1),
            ("index=-1", false, 0),
            ("index=x", false, 0),
            ("first_position=1", false, 1),
        ] {
            let (p, _) = parse(query);
            assert_eq!((p.textbook, p.first_position), (textbook, first), "{query}");
        }
        assert!(!parse("textbook=maybe").1.is_empty());
        assert!(!parse("index=2").1.is_empty());
        assert!(is_key("textbook") && is_key("index") && is_key("first_position"));
        assert!(!is_key("first"));
    }

    #[test]
    fn one_based_positions_shift_the_highlighted_position() {
        // With index=1 the rows are positions 1…n, and `pos` is a position, not a row.
        let (p, _) = parse("index=1&n=10&delta=3");
        assert_eq!(p.positions(), 1..11);
        assert_eq!(p.valid_positions(), 1..8);
        assert_eq!(
            p.position, 1,
            "position 0 does not exist: the first one is used"
        );
        assert_eq!(p.position_row(), 0);
        let (p, _) = parse("index=1&n=10&delta=-3&pos=10");
        assert_eq!((p.position, p.position_row()), (10, 9));
        let (p, _) = parse("n=10&delta=-3&pos=10");
        assert_eq!(p.position, 9, "0-based: position 10 is not a row of n = 10");
        assert_eq!(Params::default().valid_positions(), 0..59);
    }

    /// Applies one update; returns the notices that mention `word`.
    fn said(p: &mut Params, key: &str, value: &str, word: &str) -> Vec<String> {
        let notices = p.update(key, value);
        notices.into_iter().filter(|n| n.contains(word)).collect()
    }

    #[test]
    fn a_delta_reduced_by_a_short_sequence_comes_back_when_n_grows() {
        let mut p = Params::default();
        assert!(p.update("delta", "5").is_empty());
        let notices = said(&mut p, "n", "3", "δ");
        assert_eq!((p.delta, p.requested.delta), (2, 5));
        assert_eq!(
            notices,
            ["δ = 5 does not fit in a sequence of n = 3 positions; using δ = 2."]
        );
        // Every update while δ is reduced says so again, whatever it changes.
        assert_eq!(said(&mut p, "base", "500", "δ").len(), 1);
        assert!(said(&mut p, "n", "60", "δ").is_empty());
        assert_eq!(p.delta, 5);
        p.update("n", "1");
        assert_eq!(p.delta, 0);
        p.update("n", "60");
        assert_eq!(p.delta, 5);
        p.update("delta", "-7");
        p.update("n", "4");
        assert_eq!(p.delta, -3);
        p.update("n", "60");
        assert_eq!(p.delta, -7);
    }

    #[test]
    fn the_chapter_columns_and_pair_come_back_when_d_grows() {
        let mut p = Params::default();
        p.update("d", "1");
        assert_eq!((p.columns.clone(), p.pair), (vec![0], 0));
        let notices = p.update("d", "33");
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!((p.columns.clone(), p.pair), (vec![6, 7, 8, 9], 3));
    }

    #[test]
    fn requested_columns_beyond_d_are_dropped_with_a_notice_then_come_back() {
        let mut p = Params::default();
        p.update("cols", "0,1,31");
        let notices = said(&mut p, "d", "16", "Column");
        assert_eq!(p.columns, vec![0, 1]);
        assert_eq!(
            notices,
            ["Column(s) 31 do not exist for d = 16 (columns are 0…15)."]
        );
        assert!(said(&mut p, "d", "32", "Column").is_empty());
        assert_eq!(p.columns, vec![0, 1, 31]);
    }

    #[test]
    fn the_position_follows_n_silently_and_comes_back() {
        let mut p = Params::default();
        p.update("pos", "50");
        assert!(p.update("n", "10").is_empty(), "the position has no notice");
        assert!(p.valid_positions().contains(&p.position));
        assert_eq!(p.position, 8);
        p.update("n", "60");
        assert_eq!(p.position, 50);
    }

    #[test]
    fn a_new_request_replaces_the_old_and_the_link_writes_the_values_in_use() {
        let mut p = Params::default();
        p.update("delta", "5");
        p.update("n", "3");
        p.update("delta", "-9");
        assert_eq!((p.delta, p.requested.delta), (-2, -9));
        p.update("n", "60");
        assert_eq!(p.delta, -9);
        p.update("delta", "5");
        p.update("n", "3");
        assert!(query(&p).contains("&delta=2&"), "{}", query(&p));
        // The link shows what is on screen, and loads without a notice.
        let (q, notices) = parse(&query(&p));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!((q.delta, q.requested.delta), (2, 2));
        assert!(p.same_in_use(&q) && p != q);
    }

    #[test]
    fn defaults_request_what_they_use() {
        let p = Params::default();
        let r = &p.requested;
        assert_eq!(
            (r.delta, r.pair, r.position, r.columns.clone()),
            (p.delta, p.pair, p.position, p.columns.clone())
        );
        assert!(p.reductions().is_empty());
    }

    #[test]
    fn long_garbage_is_shortened_in_notices() {
        let garbage = "x".repeat(10_000);
        let (_, notices) = parse(&format!("base={garbage}"));
        assert!(notices[0].len() < 120);
    }
}
