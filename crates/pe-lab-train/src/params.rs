//! Where every parameter tensor lives in the one flat parameter vector, and how it starts.
//!
//! Each tensor is drawn from its own stream, seeded by the run's seed and the tensor's name, so
//! that two encodings trained from the same seed start with the same attention weights, readout
//! and (except `concat`, whose token embedding is narrower) the same token embedding.

use pe_lab_math::learned::INIT_STD;
use pe_lab_math::rng::{fnv1a_64, SplitMix64};

use crate::config::TrainConfig;
use crate::encodings::{relative_rows, Encoding, CONV_KERNEL};
use crate::real::Real;

/// How a tensor starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Init {
    /// Approximate N(0, std²) entries (the math crate's seeded normal).
    Normal(f64),
    Zeros,
    Ones,
}

/// One named tensor: `rows × cols` entries from `offset` in the flat vector.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    pub name: String,
    pub offset: usize,
    pub rows: usize,
    pub cols: usize,
    pub init: Init,
}

impl Tensor {
    pub fn len(&self) -> usize {
        self.rows * self.cols
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.len()
    }
}

/// The offsets of one layer's tensors (those the configuration leaves out are never read).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayerOffsets {
    pub w_q: usize,
    pub w_k: usize,
    pub w_v: usize,
    pub w_o: usize,
    /// T5: heads × buckets biases; Shaw: heads × (2k + 1) × head_width a^K.
    pub relative_key: usize,
    /// Shaw: heads × (2k + 1) × head_width a^V.
    pub relative_value: usize,
    pub norm1_gain: usize,
    pub norm1_bias: usize,
    pub mlp_in: usize,
    pub mlp_in_bias: usize,
    pub mlp_out: usize,
    pub mlp_out_bias: usize,
    pub norm2_gain: usize,
    pub norm2_bias: usize,
}

/// Every tensor of a model, in order, and the offsets the passes use.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamLayout {
    pub tensors: Vec<Tensor>,
    pub token_embedding: usize,
    /// `learned`: train_length × d.
    pub position_table: usize,
    /// `conv`: CONV_KERNEL × d weights (row o is the offset o − 1) and d biases.
    pub conv_weight: usize,
    pub conv_bias: usize,
    pub layers: Vec<LayerOffsets>,
    pub readout: usize,
    pub readout_bias: usize,
    pub total: usize,
}

impl ParamLayout {
    pub fn new(config: &TrainConfig) -> Self {
        let d = config.d;
        let mut tensors = TensorList::default();
        let token_width = d - config.encoding.appended_width(d);
        let token_embedding = tensors.push(
            "token_embedding".into(),
            config.vocab,
            token_width,
            Init::Normal(1.0),
        );
        let (position_table, conv_weight, conv_bias) = tensors.push_positions(config);
        let layers = (0..config.layers)
            .map(|l| tensors.push_layer(config, l))
            .collect();
        let projection = Init::Normal(1.0 / (d as f64).sqrt());
        let classes = config.classes();
        let readout = tensors.push("readout".into(), d, classes, projection);
        let readout_bias = tensors.push("readout_bias".into(), 1, classes, Init::Zeros);
        let tensors = tensors.tensors;
        let total = tensors.last().map_or(0, |t| t.offset + t.len());
        ParamLayout {
            tensors,
            token_embedding,
            position_table,
            conv_weight,
            conv_bias,
            layers,
            readout,
            readout_bias,
            total,
        }
    }

    /// The tensor called `name`.
    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        self.tensors.iter().find(|t| t.name == name)
    }

    /// The starting values: each tensor from `SplitMix64::new(seed ^ fnv1a_64(name))`.
    pub fn initial_values<T: Real>(&self, seed: u64) -> Vec<T> {
        let mut values = Vec::with_capacity(self.total);
        for tensor in &self.tensors {
            let mut stream = SplitMix64::new(seed ^ fnv1a_64(tensor.name.as_bytes()));
            values.extend((0..tensor.len()).map(|_| match tensor.init {
                Init::Normal(std) => T::from_f64(std * stream.approx_standard_normal()),
                Init::Zeros => T::ZERO,
                Init::Ones => T::ONE,
            }));
        }
        values
    }
}

/// The tensors of a layout as it is built, each placed right after the one before.
#[derive(Default)]
struct TensorList {
    tensors: Vec<Tensor>,
}

impl TensorList {
    /// Appends a tensor and returns its offset.
    fn push(&mut self, name: String, rows: usize, cols: usize, init: Init) -> usize {
        let offset = self
            .tensors
            .last()
            .map_or(0, |t: &Tensor| t.offset + t.len());
        self.tensors.push(Tensor {
            name,
            offset,
            rows,
            cols,
            init,
        });
        offset
    }

    /// The encoding's own tensors before the layers (`learned`'s table, `conv`'s weights and
    /// biases): the offsets (position_table, conv_weight, conv_bias), 0 for those it lacks.
    fn push_positions(&mut self, config: &TrainConfig) -> (usize, usize, usize) {
        let d = config.d;
        let mut position_table = 0;
        let mut conv_weight = 0;
        let mut conv_bias = 0;
        match config.encoding {
            Encoding::Learned => {
                position_table = self.push(
                    "position_table".into(),
                    config.train_length,
                    d,
                    Init::Normal(INIT_STD),
                );
            }
            Encoding::Conv => {
                let std = 1.0 / (CONV_KERNEL as f64).sqrt();
                conv_weight = self.push("conv_weight".into(), CONV_KERNEL, d, Init::Normal(std));
                conv_bias = self.push("conv_bias".into(), 1, d, Init::Zeros);
            }
            _ => {}
        }
        (position_table, conv_weight, conv_bias)
    }

    /// Every tensor of layer `l`, in order: the projections, the relative tables, the first
    /// layer norm, the MLP and its layer norm.
    fn push_layer(&mut self, config: &TrainConfig, l: usize) -> LayerOffsets {
        let d = config.d;
        let projection = Init::Normal(1.0 / (d as f64).sqrt());
        let hidden = config.mlp_width();
        let name = |what: &str| format!("layer{l}.{what}");
        let mut o = LayerOffsets {
            w_q: self.push(name("w_q"), d, d, projection),
            w_k: self.push(name("w_k"), d, d, projection),
            w_v: self.push(name("w_v"), d, d, projection),
            w_o: self.push(name("w_o"), d, d, projection),
            ..LayerOffsets::default()
        };
        self.push_relative_tables(config, l, &mut o);
        if config.layer_norm {
            o.norm1_gain = self.push(name("norm1_gain"), 1, d, Init::Ones);
            o.norm1_bias = self.push(name("norm1_bias"), 1, d, Init::Zeros);
        }
        if config.mlp {
            o.mlp_in = self.push(name("mlp_in"), d, hidden, projection);
            o.mlp_in_bias = self.push(name("mlp_in_bias"), 1, hidden, Init::Zeros);
            let std = 1.0 / (hidden as f64).sqrt();
            o.mlp_out = self.push(name("mlp_out"), hidden, d, Init::Normal(std));
            o.mlp_out_bias = self.push(name("mlp_out_bias"), 1, d, Init::Zeros);
            if config.layer_norm {
                o.norm2_gain = self.push(name("norm2_gain"), 1, d, Init::Ones);
                o.norm2_bias = self.push(name("norm2_bias"), 1, d, Init::Zeros);
            }
        }
        o
    }

    /// Layer `l`'s relative tables (T5's biases, Shaw's a^K and a^V), offsets into `o`.
    fn push_relative_tables(&mut self, config: &TrainConfig, l: usize, o: &mut LayerOffsets) {
        let name = |what: &str| format!("layer{l}.{what}");
        let rows = relative_rows(config.encoding);
        match config.encoding {
            Encoding::T5 => {
                o.relative_key =
                    self.push(name("t5_bias"), config.heads, rows, Init::Normal(INIT_STD));
            }
            Encoding::Shaw => {
                let cols = rows * config.head_width();
                o.relative_key =
                    self.push(name("shaw_key"), config.heads, cols, Init::Normal(INIT_STD));
                o.relative_value = self.push(
                    name("shaw_value"),
                    config.heads,
                    cols,
                    Init::Normal(INIT_STD),
                );
            }
            _ => {}
        }
    }
}
