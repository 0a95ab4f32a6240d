//! Where every f32 tensor of a GPU training run lives in the one arena buffer: the parameters,
//! their gradients and Adam's moments (in [`ParamLayout`] order), the fixed position tables, and
//! every activation and gradient of a step, sized for the longest batch of the run.

use pe_lab_train::encodings::{Encoding, PositionTables};
use pe_lab_train::TrainConfig;

/// The regions of one layer's forward caches.
#[derive(Debug, Clone)]
pub struct LayerRegions {
    /// q, k and v, `rows_max · d` apart.
    pub qkv: usize,
    /// sequences × heads × n × n.
    pub weights: usize,
    pub attended: usize,
    /// After the attention's residual sum and LayerNorm; the layer's output when there is no MLP.
    pub mid: usize,
    pub hat1: usize,
    pub inverse_std1: usize,
    pub hidden: usize,
    /// The layer's output when there is an MLP.
    pub out: usize,
    pub hat2: usize,
    pub inverse_std2: usize,
}

/// Offsets (in f32 entries) of every region, and the arena's length.
#[derive(Debug, Clone)]
pub struct ArenaLayout {
    pub rows_max: usize,
    pub length_max: usize,
    pub params: usize,
    pub grads: usize,
    pub first: usize,
    pub second: usize,
    pub parameter_count: usize,
    pub sinusoid: usize,
    pub rope_cos: usize,
    pub rope_sin: usize,
    pub alibi: usize,
    /// The embedding's output (layer 0's input).
    pub embedded: usize,
    pub layers: Vec<LayerRegions>,
    pub logits: usize,
    pub row_loss: usize,
    pub grad_x: usize,
    pub grad_mid: usize,
    /// The gradients of q, k and v, `rows_max · d` apart.
    pub grad_qkv: usize,
    pub grad_attended: usize,
    pub grad_hidden: usize,
    pub grad_scores: usize,
    /// The loss ring: one slot per step between two readbacks.
    pub losses: usize,
    pub total: usize,
    /// The fixed tables' values, to upload at their offsets.
    pub tables: Vec<(usize, Vec<f32>)>,
    /// Where T5's bucket of every offset j − i starts in the tokens-and-targets buffer (after
    /// them), and its values (index j − i + length_max − 1).
    pub offset_rows_at: usize,
    pub offset_rows: Vec<u32>,
}

impl ArenaLayout {
    pub fn new(config: &TrainConfig, parameter_count: usize, loss_slots: usize) -> Self {
        let (d, heads, hidden) = (config.d, config.heads, config.mlp_width());
        let length_max = config.train_length;
        let rows_max = config.batch * length_max;
        let squares = config.batch * heads * length_max * length_max;
        let mut arena = Regions::default();
        let params = arena.take(parameter_count);
        let grads = arena.take(parameter_count);
        let first = arena.take(parameter_count);
        let second = arena.take(parameter_count);
        let fixed = FixedTables::new(config, &mut arena);
        let block = rows_max * d;
        let embedded = arena.take(block);
        let layers = (0..config.layers)
            .map(|_| LayerRegions::new(config, rows_max, &mut arena))
            .collect();
        let logits = arena.take(rows_max * config.classes());
        let row_loss = arena.take(rows_max);
        let grad_x = arena.take(block);
        let grad_mid = arena.take(block);
        let grad_qkv = arena.take(3 * block);
        let grad_attended = arena.take(block);
        let grad_hidden = arena.take(if config.mlp { rows_max * hidden } else { 0 });
        let grad_scores = arena.take(squares);
        let losses = arena.take(loss_slots);
        ArenaLayout {
            rows_max,
            length_max,
            params,
            grads,
            first,
            second,
            parameter_count,
            sinusoid: fixed.sinusoid,
            rope_cos: fixed.rope_cos,
            rope_sin: fixed.rope_sin,
            alibi: fixed.alibi,
            embedded,
            layers,
            logits,
            row_loss,
            grad_x,
            grad_mid,
            grad_qkv,
            grad_attended,
            grad_hidden,
            grad_scores,
            losses,
            total: arena.next,
            tables: fixed.tables,
            offset_rows_at: 2 * rows_max,
            offset_rows: fixed.offset_rows,
        }
    }

    /// The input of layer `l` (and, for `l` = layers, the last layer's output).
    pub fn state(&self, config: &TrainConfig, l: usize) -> usize {
        match l.checked_sub(1) {
            None => self.embedded,
            Some(previous) if config.mlp => self.layers[previous].out,
            Some(previous) => self.layers[previous].mid,
        }
    }
}

/// Hands out the arena's regions one after the other.
#[derive(Default)]
struct Regions {
    /// Where the next region starts (the arena's length so far).
    next: usize,
}

impl Regions {
    /// A region of `len` entries: its offset.
    fn take(&mut self, len: usize) -> usize {
        let at = self.next;
        self.next += len;
        at
    }
}

/// The fixed position tables' regions, their values, and T5's bucket of every offset.
struct FixedTables {
    sinusoid: usize,
    rope_cos: usize,
    rope_sin: usize,
    alibi: usize,
    tables: Vec<(usize, Vec<f32>)>,
    offset_rows: Vec<u32>,
}

impl FixedTables {
    /// The tables of the run's encoding at the longest length, placed in `arena`.
    fn new(config: &TrainConfig, arena: &mut Regions) -> Self {
        let (d, heads, length_max) = (config.d, config.heads, config.train_length);
        let mut tables = Vec::new();
        let mut position_tables =
            PositionTables::<f32>::new(config.encoding, config.causal, d, heads);
        position_tables.ensure(length_max);
        let sinusoid = arena.take(position_tables.sinusoid.len());
        tables.push((sinusoid, position_tables.sinusoid.clone()));
        let rope_cos = arena.take(position_tables.rope_cos.len());
        tables.push((rope_cos, position_tables.rope_cos.clone()));
        let rope_sin = arena.take(position_tables.rope_sin.len());
        tables.push((rope_sin, position_tables.rope_sin.clone()));
        let alibi_values: Vec<f32> = if config.encoding == Encoding::Alibi {
            (0..heads)
                .flat_map(|h| (0..length_max).map(move |i| (h, i)))
                .flat_map(|(h, i)| (0..length_max).map(move |j| (h, i, j)))
                .map(|(h, i, j)| position_tables.alibi_bias(h, i, j))
                .collect()
        } else {
            Vec::new()
        };
        let alibi = arena.take(alibi_values.len());
        // Buckets are below 32.
        let offset_rows = position_tables
            .offset_row
            .iter()
            .map(|&row| row as u32)
            .collect();
        tables.push((alibi, alibi_values));
        FixedTables {
            sinusoid,
            rope_cos,
            rope_sin,
            alibi,
            tables,
            offset_rows,
        }
    }
}

impl LayerRegions {
    /// One layer's caches, placed in `arena` (the ones the configuration leaves out are empty).
    fn new(config: &TrainConfig, rows_max: usize, arena: &mut Regions) -> Self {
        let block = rows_max * config.d;
        let squares = config.batch * config.heads * config.train_length * config.train_length;
        let norm = config.layer_norm;
        let mlp = config.mlp;
        LayerRegions {
            qkv: arena.take(3 * block),
            weights: arena.take(squares),
            attended: arena.take(block),
            mid: arena.take(block),
            hat1: arena.take(if norm { block } else { 0 }),
            inverse_std1: arena.take(if norm { rows_max } else { 0 }),
            hidden: arena.take(if mlp {
                rows_max * config.mlp_width()
            } else {
                0
            }),
            out: arena.take(if mlp { block } else { 0 }),
            hat2: arena.take(if mlp && norm { block } else { 0 }),
            inverse_std2: arena.take(if mlp && norm { rows_max } else { 0 }),
        }
    }
}
