use super::*;
use crate::model::tests::{serialize as serialize_tiny, tiny_config, tiny_tensors};
use crate::tokenizer::tests::{small_tokenizer_json, SMALL_VOCAB};
use crate::{MiniLm, PositionTable};

/// The tiny model of the model's tests with 66 words: three chunks, the last of 2 rows.
fn chunked_config() -> BertConfig {
    BertConfig {
        vocab_size: 66,
        ..tiny_config()
    }
}

fn config_json(config: &BertConfig) -> Vec<u8> {
    serde_json::json!({
        "model_type": "bert",
        "hidden_act": "gelu",
        "vocab_size": config.vocab_size,
        "hidden_size": config.hidden_size,
        "num_hidden_layers": config.num_hidden_layers,
        "num_attention_heads": config.num_attention_heads,
        "intermediate_size": config.intermediate_size,
        "max_position_embeddings": config.max_position_embeddings,
        "type_vocab_size": config.type_vocab_size,
        "layer_norm_eps": config.layer_norm_eps,
    })
    .to_string()
    .into_bytes()
}

fn tokenizer_json(vocab_size: usize) -> Vec<u8> {
    let fillers: Vec<String> = (SMALL_VOCAB.len()..vocab_size)
        .map(|index| format!("w{index}"))
        .collect();
    let vocab: Vec<&str> = SMALL_VOCAB
        .iter()
        .copied()
        .chain(fillers.iter().map(String::as_str))
        .collect();
    small_tokenizer_json(&vocab).into_bytes()
}

fn ok<T>(result: Result<T, MiniLmError>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

fn file<'a>(files: &'a [(String, Vec<u8>)], path: &str) -> &'a [u8] {
    match files.iter().find(|(name, _)| name == path) {
        Some((_, bytes)) => bytes,
        None => panic!("no {path} among the assets"),
    }
}

struct Tiny {
    config: BertConfig,
    model_bytes: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
}

fn tiny_assets() -> Tiny {
    let config = chunked_config();
    let model_bytes = serialize_tiny(&tiny_tensors(&config), Dtype::F32);
    let files = ok(write_page_assets(
        &model_bytes,
        &config_json(&config),
        &tokenizer_json(config.vocab_size),
        Some("tiny.whl"),
    ));
    Tiny {
        config,
        model_bytes,
        files,
    }
}

#[test]
fn chunk_arithmetic() {
    assert_eq!(WORD_CHUNK_ROWS, 32);
    assert_eq!(word_chunk_of(0), 0);
    assert_eq!(word_chunk_of(31), 0);
    assert_eq!(word_chunk_of(32), 1);
    assert_eq!(word_chunk_of(30_521), 953);
    assert_eq!(word_chunk_path(12), "words/0012.bin");
    assert_eq!(word_chunk_path(953), "words/0953.bin");
    assert_eq!(word_chunk_count(30_522), 954);
    assert_eq!(word_chunk_count(32), 1);
    assert_eq!(word_chunk_count(33), 2);
    assert_eq!(word_chunk_rows(30_522, 0), Some(32));
    assert_eq!(word_chunk_rows(30_522, 953), Some(26));
    assert_eq!(word_chunk_rows(30_522, 954), None);
    assert_eq!(word_chunk_rows(64, 2), None);
    assert_eq!(word_chunk_rows(1, u32::MAX), None);
}

#[test]
fn assets_hold_every_file_with_the_right_dtypes() {
    let tiny = tiny_assets();
    let paths: Vec<&str> = tiny.files.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(
        paths,
        [
            CONFIG_FILE,
            TOKENIZER_FILE,
            LAYERS_FILE,
            EMBEDDINGS_FILE,
            "words/0000.bin",
            "words/0001.bin",
            "words/0002.bin",
            MANIFEST_FILE
        ]
    );
    assert_eq!(
        file(&tiny.files, CONFIG_FILE),
        config_json(&tiny.config).as_slice()
    );
    let hidden = tiny.config.hidden_size;
    assert_eq!(file(&tiny.files, "words/0000.bin").len(), 32 * hidden * 4);
    assert_eq!(file(&tiny.files, "words/0002.bin").len(), 2 * hidden * 4);
    // The word rows are the model's float32 values, unrounded, cut in order.
    let source = ok(SafeTensors::deserialize(&tiny.model_bytes).map_err(MiniLmError::from));
    let table = ok(source.tensor(WORD_EMBEDDINGS).map_err(MiniLmError::from));
    let chunks: Vec<u8> = (0..3)
        .flat_map(|chunk| file(&tiny.files, &word_chunk_path(chunk)).to_vec())
        .collect();
    assert_eq!(chunks.as_slice(), table.data());

    let layers =
        ok(SafeTensors::deserialize(file(&tiny.files, LAYERS_FILE)).map_err(MiniLmError::from));
    assert_eq!(layers.len(), encoder_layer_tensors(&tiny.config).len());
    for (name, view) in layers.tensors() {
        let expected = if view.shape().len() == 2 {
            Dtype::F16
        } else {
            Dtype::F32
        };
        assert_eq!(view.dtype(), expected, "{name}");
    }
    let embeddings =
        ok(SafeTensors::deserialize(file(&tiny.files, EMBEDDINGS_FILE)).map_err(MiniLmError::from));
    let mut dtypes: Vec<(String, Dtype)> = embeddings
        .tensors()
        .into_iter()
        .map(|(name, view)| (name, view.dtype()))
        .collect();
    dtypes.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        dtypes,
        [
            ("embeddings.LayerNorm.bias".to_owned(), Dtype::F32),
            ("embeddings.LayerNorm.weight".to_owned(), Dtype::F32),
            (POSITION_EMBEDDINGS.to_owned(), Dtype::F16),
            (TOKEN_TYPE_EMBEDDINGS.to_owned(), Dtype::F32),
        ]
    );

    let manifest: serde_json::Value =
        ok(serde_json::from_slice(file(&tiny.files, MANIFEST_FILE))
            .map_err(MiniLmError::ConfigJson));
    assert_eq!(manifest["model"], MODEL_NAME);
    assert_eq!(manifest["source"], "tiny.whl");
    assert_eq!(manifest["wordChunkRows"], 32);
    assert_eq!(manifest["wordChunks"], 3);
    let mut total = 0;
    for (path, bytes) in tiny.files.iter().filter(|(path, _)| path != MANIFEST_FILE) {
        assert_eq!(manifest["bytes"][path], bytes.len(), "{path}");
        total += bytes.len();
    }
    assert_eq!(manifest["totalBytes"], total);
}

#[test]
fn the_model_runs_from_its_assets_once_its_chunks_are_in() {
    let tiny = tiny_assets();
    let full = ok(MiniLm::from_safetensors(
        tiny.config.clone(),
        &tiny.model_bytes,
    ));
    let mut model = ok(MiniLm::from_page_assets(
        tiny.config.clone(),
        file(&tiny.files, LAYERS_FILE),
        file(&tiny.files, EMBEDDINGS_FILE),
    ));
    let ids = [2, 40, 65, 5, 3];

    assert!(matches!(
        model.forward(&ids, PositionTable::Learned),
        Err(MiniLmError::MissingWordRow { id: 2, chunk: 0 })
    ));
    // 500 is outside the vocabulary: no chunk, and forward still says so.
    assert_eq!(model.missing_word_chunks(&[65, 2, 500, 40, 5]), [0, 1, 2]);
    assert!(full.missing_word_chunks(&ids).is_empty());

    ok(model.insert_word_chunk(0, file(&tiny.files, "words/0000.bin")));
    assert_eq!(model.missing_word_chunks(&ids), [1, 2]);
    assert!(matches!(
        model.forward(&ids, PositionTable::Learned),
        Err(MiniLmError::MissingWordRow { id: 40, chunk: 1 })
    ));
    ok(model.insert_word_chunk(1, file(&tiny.files, "words/0001.bin")));
    ok(model.insert_word_chunk(2, file(&tiny.files, "words/0002.bin")));
    assert!(model.missing_word_chunks(&ids).is_empty());
    assert!(matches!(
        model.forward(&[2, 500], PositionTable::Learned),
        Err(MiniLmError::TokenIdOutOfRange { id: 500, .. })
    ));

    for table in [PositionTable::Learned, PositionTable::Zeroed] {
        let ours = ok(model.forward(&ids, table));
        let theirs = ok(full.forward(&ids, table));
        let difference = ours
            .attention
            .iter()
            .zip(&theirs.attention)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(difference < 2e-3, "{table:?}: {difference}");
    }

    // The table alone, as the model holds it: float16-rounded.
    let table = ok(read_position_table(
        file(&tiny.files, EMBEDDINGS_FILE),
        &tiny.config,
    ));
    assert_eq!(table.view(), model.position_table());
    for (rounded, exact) in table.iter().zip(full.position_table()) {
        assert_eq!(*rounded, half::f16::from_f32(*exact).to_f32());
    }
}

#[test]
fn float32_files_are_read_as_page_assets_too() {
    let tiny = tiny_assets();
    // The model's own file holds every tensor the two asset files do, as float32.
    let mut model = ok(MiniLm::from_page_assets(
        tiny.config.clone(),
        &tiny.model_bytes,
        &tiny.model_bytes,
    ));
    let full = ok(MiniLm::from_safetensors(
        tiny.config.clone(),
        &tiny.model_bytes,
    ));
    assert_eq!(model.position_table(), full.position_table());
    ok(model.insert_word_chunk(0, file(&tiny.files, "words/0000.bin")));
    assert!(model.forward(&[2, 5, 3], PositionTable::Learned).is_ok());

    // A model with every row takes a chunk too, in place of its rows.
    let mut full = full;
    ok(full.insert_word_chunk(2, file(&tiny.files, "words/0002.bin")));
    assert!(full.missing_word_chunks(&[65]).is_empty());
    assert!(full.forward(&[2, 65, 3], PositionTable::Learned).is_ok());

    let integers = serialize_tiny(&tiny_tensors(&tiny.config), Dtype::I32);
    let integers = MiniLm::from_page_assets(tiny.config.clone(), &integers, &integers);
    assert!(matches!(
        integers,
        Err(MiniLmError::TensorDtype {
            expected: "float16 or float32",
            ..
        })
    ));
}

#[test]
fn chunks_of_the_wrong_size_or_number_are_refused() {
    let tiny = tiny_assets();
    let mut model = ok(MiniLm::from_page_assets(
        tiny.config.clone(),
        file(&tiny.files, LAYERS_FILE),
        file(&tiny.files, EMBEDDINGS_FILE),
    ));
    let first = file(&tiny.files, "words/0000.bin");
    let last = file(&tiny.files, "words/0002.bin");
    assert!(matches!(
        model.insert_word_chunk(0, &first[1..]),
        Err(MiniLmError::WordChunkLength {
            chunk: 0,
            actual: 511,
            expected: 512
        })
    ));
    // The last chunk's file is shorter, and only it may be.
    assert!(matches!(
        model.insert_word_chunk(1, last),
        Err(MiniLmError::WordChunkLength { chunk: 1, .. })
    ));
    assert!(matches!(
        model.insert_word_chunk(2, first),
        Err(MiniLmError::WordChunkLength {
            chunk: 2,
            expected: 32,
            ..
        })
    ));
    assert!(matches!(
        model.insert_word_chunk(3, last),
        Err(MiniLmError::WordChunkOutOfRange {
            chunk: 3,
            chunks: 3
        })
    ));
    ok(model.insert_word_chunk(2, last));
    // A refused chunk leaves nothing behind.
    assert_eq!(model.missing_word_chunks(&[0, 32, 64]), [0, 1]);
}

#[test]
fn unusable_sources_are_refused() {
    let config = chunked_config();
    let tensors = tiny_tensors(&config);
    let model_bytes = serialize_tiny(&tensors, Dtype::F32);

    let fewer_words = write_page_assets(
        &model_bytes,
        &config_json(&config),
        &tokenizer_json(100),
        None,
    );
    assert!(matches!(
        fewer_words,
        Err(MiniLmError::InvalidVocabulary(_))
    ));

    let missing = serialize_tiny(&tensors[1..], Dtype::F32);
    let missing = write_page_assets(
        &missing,
        &config_json(&config),
        &tokenizer_json(config.vocab_size),
        None,
    );
    assert!(matches!(missing, Err(MiniLmError::MissingTensor(_))));

    // A weight too large for float16 is refused, not written as an infinity.
    let mut huge = tensors.clone();
    let Some((_, _, bytes)) = huge
        .iter_mut()
        .find(|(name, _, _)| name == "encoder.layer.1.output.dense.weight")
    else {
        panic!("no such tensor");
    };
    bytes[..4].copy_from_slice(&1e6f32.to_le_bytes());
    let huge = write_page_assets(
        &serialize_tiny(&huge, Dtype::F32),
        &config_json(&config),
        &tokenizer_json(config.vocab_size),
        None,
    );
    assert!(matches!(
        huge,
        Err(MiniLmError::OutOfFloat16Range { value, .. }) if value == 1e6
    ));
}
