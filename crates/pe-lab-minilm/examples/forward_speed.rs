//! How long one forward pass of all-MiniLM-L6-v2 takes natively, from the page's assets
//! (float16 layers widened to float32, the word rows the sentence needs), on the 16- and 64-token
//! sentences that `benches/minilm_speed.py` times in PyTorch and `tests/e2e/bench.test.mjs` in the
//! page: the benchmark's native column (docs/benchmarks.md). One thread (the page has one).
//!
//!   cargo run --release -p pe-lab-minilm --example forward_speed
//!   MMTEST_FEATURE=sse2 CARGO_TARGET_DIR=target/sse2 cargo run --release -p pe-lab-minilm --example forward_speed
//!
//! The second build lets ndarray's products (matrixmultiply) use 128-bit SSE2 registers only,
//! the width of WebAssembly's SIMD: the comparison the page is held to.

use std::path::PathBuf;
use std::time::Instant;

use pe_lab_minilm::page_assets::{self, CONFIG_FILE, EMBEDDINGS_FILE, LAYERS_FILE, TOKENIZER_FILE};
use pe_lab_minilm::{BertConfig, MiniLm, PositionTable, WordPieceTokenizer};

/// The benchmark's sentences: 16 and 64 tokens with `[CLS]` and `[SEP]`.
pub const SENTENCES: [&str; 2] = [
    "The animal didn't cross the street because it was too tired.",
    "The lecturer projected the attention maps on the wall, and the students, who had typed their own sentences on their laptops and phones, watched the heads that follow the previous word lose their pattern as soon as the position table was switched off, then come back when the lecturer switched it on again for the room.",
];
const RUNS: usize = 15;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/minilm/page");
    let read = |name: &str| std::fs::read(root.join(name));
    let config = BertConfig::from_config_json(&read(CONFIG_FILE)?)?;
    let tokenizer = WordPieceTokenizer::from_tokenizer_json(&read(TOKENIZER_FILE)?)?;
    let mut model = MiniLm::from_page_assets(config, &read(LAYERS_FILE)?, &read(EMBEDDINGS_FILE)?)?;
    println!("native forward pass, one thread, median of {RUNS} (min–max) in ms");
    for sentence in SENTENCES {
        let ids = tokenizer.encode(sentence).ids;
        for chunk in model.missing_word_chunks(&ids) {
            model.insert_word_chunk(chunk, &read(&page_assets::word_chunk_path(chunk))?)?;
        }
        model.forward(&ids, PositionTable::Learned)?;
        let mut times: Vec<f64> = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let output = model.forward(&ids, PositionTable::Learned);
                let ms = start.elapsed().as_secs_f64() * 1e3;
                std::hint::black_box(output).map(|_| ms)
            })
            .collect::<Result<_, _>>()?;
        times.sort_by(f64::total_cmp);
        println!(
            "{:>3} tokens: {:.2} ({:.2}–{:.2})",
            ids.len(),
            times[RUNS / 2],
            times[0],
            times[RUNS - 1]
        );
    }
    Ok(())
}
