use super::*;
use safetensors::tensor::TensorView;

/// A BERT of the smallest sizes, with weights made from their index.
pub(crate) fn tiny_config() -> BertConfig {
    BertConfig {
        vocab_size: 7,
        hidden_size: 4,
        num_hidden_layers: 2,
        num_attention_heads: 2,
        intermediate_size: 8,
        max_position_embeddings: 5,
        type_vocab_size: 2,
        layer_norm_eps: 1e-12,
    }
}

pub(crate) fn tiny_tensors(config: &BertConfig) -> Vec<(String, Vec<usize>, Vec<u8>)> {
    let hidden = config.hidden_size;
    let inner = config.intermediate_size;
    let mut shapes: Vec<(String, Vec<usize>)> = vec![
        (
            "embeddings.word_embeddings.weight".into(),
            vec![config.vocab_size, hidden],
        ),
        (
            "embeddings.position_embeddings.weight".into(),
            vec![config.max_position_embeddings, hidden],
        ),
        (
            "embeddings.token_type_embeddings.weight".into(),
            vec![config.type_vocab_size, hidden],
        ),
        ("embeddings.LayerNorm.weight".into(), vec![hidden]),
        ("embeddings.LayerNorm.bias".into(), vec![hidden]),
    ];
    for layer in 0..config.num_hidden_layers {
        let prefix = format!("encoder.layer.{layer}");
        for (name, outputs, inputs) in [
            ("attention.self.query", hidden, hidden),
            ("attention.self.key", hidden, hidden),
            ("attention.self.value", hidden, hidden),
            ("attention.output.dense", hidden, hidden),
            ("intermediate.dense", inner, hidden),
            ("output.dense", hidden, inner),
        ] {
            shapes.push((format!("{prefix}.{name}.weight"), vec![outputs, inputs]));
            shapes.push((format!("{prefix}.{name}.bias"), vec![outputs]));
        }
        for name in ["attention.output.LayerNorm", "output.LayerNorm"] {
            shapes.push((format!("{prefix}.{name}.weight"), vec![hidden]));
            shapes.push((format!("{prefix}.{name}.bias"), vec![hidden]));
        }
    }
    shapes
        .into_iter()
        .enumerate()
        .map(|(tensor, (name, shape))| {
            let count: usize = shape.iter().product();
            let bytes = (0..count)
                .flat_map(|index| {
                    let value = ((tensor * 31 + index * 17) % 23) as f32 / 23.0 - 0.4;
                    value.to_le_bytes()
                })
                .collect();
            (name, shape, bytes)
        })
        .collect()
}

pub(crate) fn serialize(tensors: &[(String, Vec<usize>, Vec<u8>)], dtype: Dtype) -> Vec<u8> {
    let views: Vec<(String, TensorView<'_>)> = tensors
        .iter()
        .map(|(name, shape, bytes)| {
            let view = TensorView::new(dtype, shape.clone(), bytes);
            match view {
                Ok(view) => (name.clone(), view),
                Err(error) => panic!("{name}: {error}"),
            }
        })
        .collect();
    match safetensors::serialize(views, None) {
        Ok(bytes) => bytes,
        Err(error) => panic!("{error}"),
    }
}

fn tiny_model() -> MiniLm {
    let config = tiny_config();
    let bytes = serialize(&tiny_tensors(&config), Dtype::F32);
    match MiniLm::from_safetensors(config, &bytes) {
        Ok(model) => model,
        Err(error) => panic!("the tiny weights are rejected: {error}"),
    }
}

#[test]
fn attention_rows_are_distributions() {
    let model = tiny_model();
    let output = match model.forward(&[2, 5, 1, 3], PositionTable::Learned) {
        Ok(output) => output,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(output.attention.shape(), &[2, 2, 4, 4]);
    assert_eq!(output.last_hidden_state.shape(), &[4, 4]);
    for row in output.attention.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-5, "{row}");
        assert!(row.iter().all(|&weight| weight >= 0.0));
    }
}

#[test]
fn without_the_table_the_order_of_tokens_only_permutes_the_weights() {
    let model = tiny_model();
    let run = |ids: &[u32]| match model.forward(ids, PositionTable::Zeroed) {
        Ok(output) => output,
        Err(error) => panic!("{error}"),
    };
    let forward = run(&[2, 5, 1, 3]);
    let reversed = run(&[3, 1, 5, 2]);
    let last = 3;
    for ((layer, head, query, key), &weight) in forward.attention.indexed_iter() {
        let mirrored = reversed.attention[(layer, head, last - query, last - key)];
        assert!((weight - mirrored).abs() < 1e-5);
    }
    let with_table = match model.forward(&[2, 5, 1, 3], PositionTable::Learned) {
        Ok(output) => output,
        Err(error) => panic!("{error}"),
    };
    assert_ne!(with_table.attention, forward.attention);
}

#[test]
fn bad_inputs_are_typed_errors() {
    let model = tiny_model();
    assert!(matches!(
        model.forward(&[], PositionTable::Learned),
        Err(MiniLmError::NoTokens)
    ));
    assert!(matches!(
        model.forward(&[1; 6], PositionTable::Learned),
        Err(MiniLmError::TooManyTokens { count: 6, limit: 5 })
    ));
    assert!(matches!(
        model.forward(&[1, 7], PositionTable::Learned),
        Err(MiniLmError::TokenIdOutOfRange {
            id: 7,
            position: 1,
            ..
        })
    ));
}

#[test]
fn bad_weights_are_typed_errors() {
    let config = tiny_config();
    let tensors = tiny_tensors(&config);
    let bytes = serialize(&tensors, Dtype::F32);

    let truncated = MiniLm::from_safetensors(config.clone(), &bytes[..bytes.len() - 1]);
    assert!(matches!(truncated, Err(MiniLmError::Safetensors(_))));
    let garbage = MiniLm::from_safetensors(config.clone(), b"not a safetensors file");
    assert!(matches!(garbage, Err(MiniLmError::Safetensors(_))));

    let missing = serialize(&tensors[1..], Dtype::F32);
    let missing = MiniLm::from_safetensors(config.clone(), &missing);
    assert!(
        matches!(missing, Err(MiniLmError::MissingTensor(name)) if name == "embeddings.word_embeddings.weight")
    );

    let wider = BertConfig {
        hidden_size: 6,
        ..config.clone()
    };
    let wider = MiniLm::from_safetensors(wider, &bytes);
    assert!(matches!(wider, Err(MiniLmError::TensorShape { .. })));

    // The same bytes called 32-bit integers.
    let integers = MiniLm::from_safetensors(config, &serialize(&tensors, Dtype::I32));
    assert!(matches!(integers, Err(MiniLmError::TensorDtype { .. })));
}

#[test]
fn prefixed_names_are_read_too() {
    let config = tiny_config();
    let prefixed: Vec<_> = tiny_tensors(&config)
        .into_iter()
        .map(|(name, shape, bytes)| (format!("bert.{name}"), shape, bytes))
        .collect();
    let loaded = MiniLm::from_safetensors(config, &serialize(&prefixed, Dtype::F32));
    assert!(loaded.is_ok());
}

#[test]
fn gelu_is_the_erf_one() {
    // Φ(1) = 0.841344746…; the tanh approximation gives 0.841191990…
    assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
    assert_eq!(gelu(0.0), 0.0);
}
