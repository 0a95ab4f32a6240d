//! The trained model uses exactly the math crate's position definitions: the same sinusoid,
//! rotation, slopes, buckets and clipping as the page's panels, compared value for value.

use ndarray::Array2;
use pe_lab_math::alibi;
use pe_lab_math::encoding::sinusoidal;
use pe_lab_math::position::{Encoding as PanelEncoding, PositionScheme};
use pe_lab_math::rng::SplitMix64;
use pe_lab_math::rope::rotate_rows_f32;
use pe_lab_math::shaw::clipped_index;
use pe_lab_math::t5::bucket;
use pe_lab_train::attention::{rope_rotate, Shape};
use pe_lab_train::encodings::{t5_layout, PositionTables, BASE, SHAW_CLIP};
use pe_lab_train::tasks::{Batch, NO_TARGET};
use pe_lab_train::{Encoding, Model, TrainConfig, Workspace};

fn random(rows: usize, cols: usize, seed: u64) -> Vec<f32> {
    let mut stream = SplitMix64::new(seed);
    (0..rows * cols)
        .map(|_| stream.approx_standard_normal() as f32)
        .collect()
}

fn shape(length: usize, d: usize, heads: usize, causal: bool, encoding: Encoding) -> Shape {
    Shape {
        sequences: 1,
        length,
        d,
        heads,
        causal,
        encoding,
    }
}

#[test]
fn rope_is_the_math_crate_rotation_bit_for_bit() {
    let (n, d, heads) = (40, 32, 2);
    let head_width = d / heads;
    let mut tables = PositionTables::<f32>::new(Encoding::Rope, false, d, heads);
    tables.ensure(n);
    let x = random(n, d, 1);
    let mut rotated = x.clone();
    rope_rotate(
        &mut rotated,
        &shape(n, d, heads, false, Encoding::Rope),
        &tables,
        false,
    );
    let panel = PositionScheme::new(PanelEncoding::Rope, BASE, 1);
    let full = Array2::from_shape_vec((n, d), x.clone()).expect("n·d values");
    for h in 0..heads {
        let head = full.slice(ndarray::s![.., h * head_width..(h + 1) * head_width]);
        let by_rows = rotate_rows_f32(head, BASE);
        let by_panel = panel.rotate_head(head).expect("a valid base");
        for m in 0..n {
            for c in 0..head_width {
                let ours = rotated[m * d + h * head_width + c];
                assert_eq!(
                    ours.to_bits(),
                    by_rows[[m, c]].to_bits(),
                    "row {m}, column {c}"
                );
                assert_eq!(ours.to_bits(), by_panel[[m, c]].to_bits());
            }
        }
    }
    // The backward rotation undoes it.
    rope_rotate(
        &mut rotated,
        &shape(n, d, heads, false, Encoding::Rope),
        &tables,
        true,
    );
    for (a, b) in rotated.iter().zip(&x) {
        assert!((a - b).abs() < 1e-5);
    }
}

#[test]
fn alibi_uses_the_math_crate_slopes_and_bias() {
    let n = 24;
    for heads in 1..=8 {
        for causal in [false, true] {
            let mut tables = PositionTables::<f32>::new(Encoding::Alibi, causal, 8 * heads, heads);
            tables.ensure(n);
            assert_eq!(tables.slopes, alibi::slopes(heads));
            for (h, &slope) in tables.slopes.iter().enumerate() {
                let bias = alibi::bias(slope, n);
                for i in 0..n {
                    for j in 0..n {
                        // The causal bias below the diagonal; the bidirectional form mirrors it.
                        let (row, column) = if j <= i { (i, j) } else { (j, i) };
                        let want = bias[[row, column]] as f32;
                        assert_eq!(tables.alibi_bias(h, i, j).to_bits(), want.to_bits());
                        if j <= i {
                            let panel = (slope * (j as f64 - i as f64)) as f32;
                            assert_eq!(tables.alibi_bias(h, i, j).to_bits(), panel.to_bits());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn t5_and_shaw_use_the_math_crate_buckets_and_clipping() {
    let n = 70;
    for causal in [false, true] {
        let mut t5 = PositionTables::<f32>::new(Encoding::T5, causal, 16, 2);
        t5.ensure(n);
        let layout = t5_layout(causal);
        assert_eq!(layout.bidirectional, !causal);
        let mut shaw = PositionTables::<f32>::new(Encoding::Shaw, causal, 16, 2);
        shaw.ensure(n);
        for i in 0..n {
            for j in 0..n {
                let offset = j as i64 - i as i64;
                assert_eq!(
                    t5.row_of(i, j),
                    bucket(offset, &layout).expect("valid layout")
                );
                assert_eq!(shaw.row_of(i, j), clipped_index(offset, SHAW_CLIP));
            }
        }
    }
}

/// The layer input (embedding and position) of one sequence of `n` tokens.
fn embedded(config: &TrainConfig, n: usize) -> (Model<f32>, Vec<f32>, Batch, Vec<f32>) {
    let mut model = Model::<f32>::new(config);
    let params: Vec<f32> = model.layout.initial_values(config.seed);
    let tokens: Vec<usize> = (0..n).map(|i| (i * 7) % config.vocab).collect();
    let batch = Batch {
        sequences: 1,
        length: n,
        tokens,
        targets: vec![NO_TARGET; n],
    };
    let mut ws = Workspace::default();
    model.forward(&params, &batch, &mut ws);
    let input = ws.states[0][..n * config.d].to_vec();
    (model, params, batch, input)
}

#[test]
fn added_and_appended_sinusoids_are_the_math_crate_encoding() {
    let n = 30;
    for encoding in [Encoding::Sinusoidal, Encoding::Concat] {
        let config = TrainConfig {
            encoding,
            ..TrainConfig::default()
        };
        let d = config.d;
        let appended = encoding.appended_width(d);
        let token_width = d - appended;
        let p = sinusoidal(n, if appended > 0 { appended } else { d }, BASE);
        let (model, params, batch, input) = embedded(&config, n);
        let table = &params[model.layout.token_embedding..];
        for i in 0..n {
            let token = &table[batch.tokens[i] * token_width..][..token_width];
            let row = &input[i * d..(i + 1) * d];
            if appended > 0 {
                assert_eq!(&row[..token_width], token);
                for c in 0..appended {
                    assert_eq!(row[token_width + c].to_bits(), p[[i, c]].to_bits());
                }
            } else {
                for c in 0..d {
                    assert_eq!(row[c].to_bits(), (token[c] + p[[i, c]]).to_bits());
                }
            }
        }
    }
}

#[test]
fn positions_past_the_learned_table_get_nothing() {
    let config = TrainConfig {
        encoding: Encoding::Learned,
        train_length: 10,
        ..TrainConfig::default()
    };
    let (n, d) = (25, config.d);
    let (model, params, batch, input) = embedded(&config, n);
    let table = model
        .layout
        .tensor("position_table")
        .expect("a learned table");
    assert_eq!((table.rows, table.cols), (10, d));
    let tokens = &params[model.layout.token_embedding..];
    let rows = &params[table.range()];
    for i in 0..n {
        let token = &tokens[batch.tokens[i] * d..][..d];
        for c in 0..d {
            let want = if i < 10 {
                token[c] + rows[i * d + c]
            } else {
                token[c]
            };
            assert_eq!(input[i * d + c].to_bits(), want.to_bits(), "position {i}");
        }
    }
}
