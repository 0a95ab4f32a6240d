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
        let mut next = 0usize;
        let mut take = |len: usize| {
            let at = next;
            next += len;
            at
        };
        let params = take(parameter_count);
        let grads = take(parameter_count);
        let first = take(parameter_count);
        let second = take(parameter_count);
        let mut tables = Vec::new();
        let mut position_tables =
            PositionTables::<f32>::new(config.encoding, config.causal, d, heads);
        position_tables.ensure(length_max);
        let sinusoid = take(position_tables.sinusoid.len());
        tables.push((sinusoid, position_tables.sinusoid.clone()));
        let rope_cos = take(position_tables.rope_cos.len());
        tables.push((rope_cos, position_tables.rope_cos.clone()));
        let rope_sin = take(position_tables.rope_sin.len());
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
        let alibi = take(alibi_values.len());
        // Buckets are below 32.
        let offset_rows = position_tables
            .offset_row
            .iter()
            .map(|&row| row as u32)
            .collect();
        tables.push((alibi, alibi_values));
        let block = rows_max * d;
        let embedded = take(block);
        let layers = (0..config.layers)
            .map(|_| LayerRegions {
                qkv: take(3 * block),
                weights: take(squares),
                attended: take(block),
                mid: take(block),
                hat1: take(if config.layer_norm { block } else { 0 }),
                inverse_std1: take(if config.layer_norm { rows_max } else { 0 }),
                hidden: take(if config.mlp { rows_max * hidden } else { 0 }),
                out: take(if config.mlp { block } else { 0 }),
                hat2: take(if config.mlp && config.layer_norm {
                    block
                } else {
                    0
                }),
                inverse_std2: take(if config.mlp && config.layer_norm {
                    rows_max
                } else {
                    0
                }),
            })
            .collect();
        let logits = take(rows_max * config.classes());
        let row_loss = take(rows_max);
        let grad_x = take(block);
        let grad_mid = take(block);
        let grad_qkv = take(3 * block);
        let grad_attended = take(block);
        let grad_hidden = take(if config.mlp { rows_max * hidden } else { 0 });
        let grad_scores = take(squares);
        let losses = take(loss_slots);
        ArenaLayout {
            rows_max,
            length_max,
            params,
            grads,
            first,
            second,
            parameter_count,
            sinusoid,
            rope_cos,
            rope_sin,
            alibi,
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
            total: next,
            tables,
            offset_rows_at: 2 * rows_max,
            offset_rows,
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
