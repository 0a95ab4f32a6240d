//! How long one forward pass takes natively, for a 16- and a 64-token input: a benchmark's
//! printout, not a test (it asserts nothing about time), so it runs only when asked for:
//!   cargo test --release -p pe-lab-minilm --test forward_timing -- --ignored --nocapture

mod common;

use std::time::{Duration, Instant};

use pe_lab_minilm::PositionTable;

// Fewer unoptimized runs: each takes about a second there.
const RUNS: usize = if cfg!(debug_assertions) { 3 } else { 20 };

#[test]
#[ignore = "a benchmark's printout: run with --ignored --nocapture"]
fn print_forward_times() {
    let Some(paths) = common::required_files(
        "forward timing",
        &["tokenizer.json", "config.json", "model.safetensors"],
        common::HOW_TO_FETCH,
    ) else {
        return;
    };
    let tokenizer = common::load_tokenizer(&paths[0]);
    let model = common::load_model(&paths[1], &paths[2]);

    let text = "In the beginning of the twentieth century, physicists discovered that light \
        behaves both as a wave and as a particle, a duality that puzzled scientists for decades \
        and eventually led to the development of quantum mechanics, one of the most successful \
        theories ever devised, which today underpins lasers, transistors, and the computers on \
        which we read about it.";
    let ids = tokenizer.encode(text).ids;
    let (Some(&cls), Some(&sep)) = (ids.first(), ids.last()) else {
        panic!("no tokens");
    };
    let profile = if cfg!(debug_assertions) {
        "debug (unoptimized: run with --release for the real figures)"
    } else {
        "release"
    };
    for length in [16, 64] {
        assert!(
            ids.len() >= length,
            "the text has only {} tokens",
            ids.len()
        );
        // The text's first tokens, closed with [SEP] as a sentence of that length would be.
        let mut input: Vec<u32> = ids[..length - 1].to_vec();
        input.push(sep);
        assert_eq!(input[0], cls);
        let mut times: Vec<Duration> = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let output = model.forward(&input, PositionTable::Learned);
                let elapsed = start.elapsed();
                assert!(output.is_ok());
                elapsed
            })
            .collect();
        times.sort();
        common::report(&format!(
            "forward, {length} tokens, {profile}: median {:.2} ms, fastest {:.2} ms ({RUNS} runs)",
            times[RUNS / 2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
        ));
    }
}
