//! The complexity panel's numbers and read-outs, against independent counts and their expected text.
use super::*;

/// n = 6 tokens of width d = 4, kernel k = 3.
fn small(measure: &MeasureState) -> ComplexityStats {
    compute(6, 4, 3, "cpu", measure).unwrap()
}

/// A CPU time of 1.234 ms at n × d.
fn timed(n: usize, d: usize, runs: usize) -> MeasureState {
    let result = Some(Measurement {
        n,
        d,
        backend: "cpu",
        ms: 1.234,
        runs,
    });
    MeasureState {
        result,
        ..Default::default()
    }
}

#[test]
fn stats_at_n6_d4_k3_are_the_chapters_counts() {
    let s = small(&MeasureState::default());
    // k·n·d², n·d², n²·d, and the sequential steps and path lengths, counted by hand.
    let counts = |c: &CostView| (c.operations, c.sequential_operations, c.max_path_length);
    assert_eq!(counts(&s.cnn), (288.0, 1.0, 3.0));
    assert_eq!(counts(&s.rnn), (96.0, 6.0, 6.0));
    assert_eq!(counts(&s.self_attention), (144.0, 1.0, 1.0));
    assert_eq!((s.crossover_n, s.crossover_n_cnn), (4, 12));
    // Kernel 3 widens the field by 2 a layer, 1 → 3 → 5 → 7 ≥ 6; dilated, 1 → 3 → 9.
    assert_eq!(s.cnn_layers_to_connect, Some(3));
    assert_eq!(s.cnn_dilated_layers_to_connect, Some(2));
    assert!(!s.measuring && !s.measured_current && s.measured_n.is_none());
    assert!(compute(0, 4, 3, "cpu", &MeasureState::default()).is_err());
}

#[test]
fn the_table_cells_group_thousands_and_state_the_cnn_layers() {
    let cells = table_cells(&small(&MeasureState::default()));
    assert_eq!(cells[0], ["288", "1", "3 layers = ⌈5/2⌉ (d2l: O(n/k))"]);
    assert_eq!(cells[1], ["96", "6", "6"]);
    assert_eq!(cells[2], ["144", "1", "1"]);
    assert_eq!(format_count(184_320.0), "184\u{202f}320");
    assert_eq!(format_count(1.84e9), "1.84e9");
    assert_eq!(cnn_path_cell(6, 1, None), "never (kernel 1; d2l: O(n/k))");
    assert_eq!(cnn_path_cell(1, 3, Some(0)), "1 layer (n = 1)");
}

#[test]
fn the_crossover_sentence_states_n_d_k_and_the_layer_counts() {
    let text = crossover_sentence(&small(&MeasureState::default()));
    for part in [
        "at n = d = 4 (here n = 6 > d: the RNN needs fewer operations, but 6 sequential",
        "the CNN's k·n·d² at n = k·d = 12.",
        "position 0 and position 5 after ⌈(n − 1)/(k − 1)⌉ = 3 layers",
        "(dilations 1, 3, 9, …) would need ⌈log_k n⌉ = 2 layers",
        "has n = 6 edges",
    ] {
        assert!(text.contains(part), "{part} not in {text}");
    }
    let idle = MeasureState::default();
    let at = |n| crossover_sentence(&compute(n, 4, 3, "cpu", &idle).unwrap());
    assert!(at(2).contains("here n = 2 < d: self-attention needs fewer"));
    assert!(at(4).contains("here n = d = 4: the two cost the same"));
    assert!(at(1).contains("With a single position (n = 1)"));
    assert!(path_sentence(6, 1, None, None).starts_with("A CNN of kernel 1"));
}

#[test]
fn the_measure_note_follows_the_timing_state() {
    let idle = MeasureState::default();
    let cpu = "the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask";
    let press = format!("Press Measure to time {cpu}) at n = 6, d = 4.");
    assert_eq!(measure_note(6, 4, "cpu", &idle), press);
    let gpu = measure_note(6, 4, "webgpu", &idle);
    assert!(gpu.ends_with("fastest of 3) at n = 6, d = 4."), "{gpu}");
    // 4096²·2048 = 2³⁵ multiply-adds, over the CPU's 2²⁷.
    let large = measure_note(4096, 2048, "cpu", &idle);
    assert!(large.starts_with("n²·d = 3.44e10 is too large"), "{large}");
    assert!(large.ends_with("(limit 1.3e8)."), "{large}");
    let running = MeasureState {
        running: Some((6, 4)),
        ..Default::default()
    };
    let text = measure_note(6, 4, "webgpu", &running);
    assert_eq!(text, "Measuring the attention kernel at n = 6, d = 4…");
    let refused = MeasureState {
        refused: Some((6, 4, "why".into())),
        ..Default::default()
    };
    let text = measure_note(6, 4, "cpu", &refused);
    assert_eq!(text, "No time at n = 6, d = 4: why");
    let measured = timed(6, 4, 5);
    let now = measure_note(6, 4, "cpu", &measured);
    let time = format!("1.23 ms for {cpu}; mean of 5 runs) at n = 6, d = 4");
    assert_eq!(now, format!("Measured: {time}."));
    let stale = format!("Last measured: {time}. Press Measure for n = 8, d = 4.");
    assert_eq!(measure_note(8, 4, "cpu", &measured), stale);
    let s = small(&measured);
    assert!(s.measured_current && s.measure_note == now);
    assert_eq!((s.measured_n, s.measured_runs), (Some(6), Some(5)));
}

#[test]
fn auto_measure_is_only_for_small_untimed_sizes() {
    let idle = MeasureState::default();
    assert!(wants_auto_measure(&idle, 64, 64, "cpu", false));
    // 256²·512 = 2²⁵: over the CPU's automatic budget, within the GPU's.
    assert!(!wants_auto_measure(&idle, 256, 512, "cpu", false));
    assert!(wants_auto_measure(&idle, 256, 512, "webgpu", true));
    let done = timed(64, 64, 1);
    assert!(!wants_auto_measure(&done, 64, 64, "cpu", false));
    assert!(wants_auto_measure(&done, 64, 64, "webgpu", true));
    let mut running = done;
    running.running = Some((8, 8));
    assert!(!wants_auto_measure(&running, 32, 32, "cpu", false));
}

#[test]
fn the_chart_labels_state_k_and_the_crossovers_inside_the_axis() {
    assert_eq!(cnn_curve_label(3), "CNN k·n·d² (k = 3)");
    let marks = crossover_marks(4, 3, 48);
    assert_eq!(marks[0], (4.0, "n = d = 4".to_string(), false));
    assert_eq!(marks[1], (12.0, "n = k·d = 12".to_string(), true));
    // Kernel 1: n = k·d is n = d, marked once; a crossover beyond the axis is left out.
    assert_eq!(crossover_marks(4, 1, 48).len(), 1);
    assert_eq!(crossover_marks(40, 3, 48).len(), 1);
}

#[test]
fn the_figure_labels_state_the_drawn_sizes() {
    assert_eq!((drawn_positions(0), drawn_positions(100)), (1, MAX_DRAWN));
    let caption = "Drawn for 16 positions, not n = 20 (too many to draw); the table has n = 20.";
    assert_eq!(paths_caption(20), caption);
    assert_eq!(paths_caption(1), "1 position, as in the table.");
    assert_eq!(paths_caption(5), "5 positions, as in the table.");
    assert_eq!(cnn_title(3), "CNN, kernel k = 3");
    assert_eq!(cnn_path_label(5, 3), "2 layers");
    assert_eq!(cnn_path_label(1, 3), "1 layer");
    assert_eq!(cnn_path_label(5, 1), "never (k = 1 connects nothing)");
    assert_eq!(rnn_path_label(5), "5 (1 up, 4 along)");
    assert_eq!(rnn_path_label(1), "1");
}

#[test]
fn a_measurement_in_flight_changes_the_key() {
    let key = |value: &MeasureState| Inputs::new().with_parts(value);
    let idle = MeasureState::default();
    let running = MeasureState {
        running: Some((64, 32)),
        ..idle.clone()
    };
    assert_ne!(key(&idle), key(&running));
}
