//! The number formats and the read-out sentences of P's panels, against their expected text.

use super::*;

#[test]
fn durations_keep_three_significant_figures() {
    assert_eq!(duration_ms(0.04234), "0.0423 ms");
    assert_eq!(duration_ms(0.5), "0.500 ms");
    assert_eq!(duration_ms(1.254), "1.25 ms");
    assert_eq!(duration_ms(31.26), "31.3 ms");
    assert_eq!(duration_ms(312.4), "312 ms");
    assert_eq!(duration_ms(4321.0), "4321 ms");
    assert_eq!(duration_ms(0.0), "0 ms");
}

#[test]
fn numbers() {
    assert_eq!(format_number(0.0), "0");
    assert_eq!(format_number(1.5e-4), "1.50e-4");
    assert_eq!(format_number(0.12345), "0.1235");
    assert_eq!(format_number(12.3456), "12.346");
    assert_eq!(format_number(2.5e6), "2.50e6");
    assert_eq!(format_number(f64::INFINITY), "inf");
    assert_eq!(subscript(105), "₁₀₅");
    assert_eq!(format_period(6.2849), "6.28");
    assert_eq!(format_period(46.42), "46.4");
    assert_eq!(format_period(2154.4), "2154");
    assert_eq!(format_period(1.0e6), "1.0e6");
    assert_eq!(matrix_entry(-0.0), "0.0000");
    assert_eq!(matrix_entry(-0.00001), "0.0000");
    assert_eq!(matrix_entry(0.5403), "0.5403");
}

#[test]
fn summary_of_p_states_shape_range_and_periods() {
    let s = EncodingSummary {
        n: 60,
        d: 32,
        p_min: -1.0,
        p_max: 1.0,
        frequencies: 16,
        shortest_period: std::f64::consts::TAU,
        longest_period: 34_000.0,
        first_position: 0,
        source: PSource::Exact,
    };
    assert_eq!(
        encoding_summary(&s),
        "P is 60 × 32 (1920 values) in [-1.0000, 1.0000]; 16 frequencies, periods from 6.28 to 34000 positions."
    );
    let odd = encoding_summary(&EncodingSummary {
        d: 1,
        frequencies: 1,
        ..s
    });
    assert!(odd.contains("1 frequency, period 6.28 positions."), "{odd}");
    assert!(odd.contains("last column (0) is a sine"));
    let julia = encoding_summary(&EncodingSummary {
        first_position: 1,
        d: 33,
        source: PSource::TextbookBesideExactHeatmap,
        ..s
    });
    assert!(julia.contains("Rows are positions 1…60"), "{julia}");
    assert!(julia.contains("last column (33 counted from 1)"), "{julia}");
    assert!(julia.contains("heatmap is the exact P"), "{julia}");
}

#[test]
fn curves_and_cells() {
    assert_eq!(
        curves_summary(&[6, 7], 60, 0, PSource::Exact),
        "Columns 6 (sin), 7 (cos) against position 0…59."
    );
    assert_eq!(
        curves_summary(&[0], 1, 0, PSource::Exact),
        "Column 0 (sin) against position 0…0."
    );
    let cell = encoding_cell(3, 1, 0.5, 0, false);
    assert_eq!(cell, "position 3, column 1 (cos, pair j = 0): p = 0.5000");
    // The Julia figure: 1-based columns 6…10 are 0-based 5…9, positions 1…60.
    let julia = curves_summary(&[5, 6, 7, 8, 9], 60, 1, PSource::Exact);
    assert!(
        julia.starts_with(
            "Columns 6 (cos), 7 (sin), 8 (cos), 9 (sin), 10 (cos) against position 1…60."
        ),
        "{julia}"
    );
    assert!(
        julia.contains("cols counts from 0: 5, 6, 7, 8, 9"),
        "{julia}"
    );
    // The chapter's 0-based sentence is mapped to the 1-based columns on screen.
    assert!(julia.contains("its columns 6 and 7 (a sine and its cosine twin) and 8 and 9 are columns 7, 8 and 9, 10 here"), "{julia}");
    assert!(
        julia.contains("P[6:10, :]: column 6 is the cosine of pair 2"),
        "{julia}"
    );
    let cell = encoding_cell(2, 5, 0.5, 1, true);
    assert_eq!(
        cell,
        "position 3, column 6 (cos, pair j = 2; Julia's P[6, 3, 1]): p = 0.5000 (textbook float32)"
    );
    assert_eq!(column_label(5, 1), 6);
    assert_eq!(column_label(5, 0), 5);
}

#[test]
fn projection_sentences() {
    assert_eq!(
        projection_note(3, 1, 0, PSource::Exact),
        "Pair j = 3 (columns 6 and 7), offset δ = 1: the same matrix M carries every p_i to p_(i+δ)."
    );
    let julia = projection_note(3, 1, 1, PSource::TextbookBesideExactHeatmap);
    assert!(julia.contains("(columns 7 and 8 counted from 1; 0-based 6 and 7)"));
    assert!(julia.contains("textbook float32 P, computed on the CPU"));
    assert_eq!(textbook_note(false, 2047, 1e-4, 1e-4), "");
    let why = textbook_note(true, 2047, 1.336e-4, 1.354e-4);
    assert!(why.contains("near i = 2047"), "{why}");
    assert!(why.contains("i·2⁻²⁴ ≈ 1.22e-4"), "{why}");
    assert!(why.contains("off by up to 1.34e-4 rad"), "{why}");
    assert!(why.contains("by up to 1.35e-4"), "{why}");
    let wide = projection_angle(0, 1.0, 7.0);
    assert!(wide.contains("the same turn as 0.7168 rad"), "{wide}");
    let narrow = projection_angle(0, 1.0, 1.0);
    assert!(narrow.ends_with("(57.30°)"), "{narrow}");
}

#[test]
fn a_line_breaks_between_words_and_between_chinese_characters() {
    assert_eq!(
        break_pieces("Head 0 of h"),
        vec![(" ", "Head"), (" ", "0"), (" ", "of"), (" ", "h")]
    );
    // Around a Chinese character a line may break with nothing between; a closing mark stays
    // with the character before it, and a Latin word stays whole.
    assert_eq!(
        break_pieces("蓝–白，viridis"),
        vec![(" ", "蓝"), ("", "–"), ("", "白，"), ("", "viridis")]
    );
}
