//! The model and its forward pass: token embedding and position → `layers` × (multi-head
//! attention with W_q, W_k, W_v, W_o and a residual connection, optional LayerNorm, optional MLP
//! with its own residual connection) → a linear readout at every position → cross-entropy over
//! every position that has a target.

use crate::attention::{self, grow, rope_rotate, Scratch, Shape};
use crate::config::TrainConfig;
use crate::encodings::{relative_rows, Encoding, PositionTables, CONV_KERNEL};
use crate::linalg::{add_bias, layer_norm, matmul, softmax_in_place};
use crate::params::ParamLayout;
use crate::real::Real;
use crate::tasks::{Batch, NO_TARGET};

/// What one layer's forward pass keeps for the backward pass.
#[derive(Debug, Clone, Default)]
pub struct LayerCache<T> {
    pub q: Vec<T>,
    pub k: Vec<T>,
    pub v: Vec<T>,
    /// sequences × heads × length × length.
    pub weights: Vec<T>,
    /// The heads' outputs, concatenated, before W_o.
    pub attended: Vec<T>,
    /// After the attention's residual sum (and its LayerNorm): the MLP's input.
    pub mid: Vec<T>,
    pub norm1_hat: Vec<T>,
    pub norm1_inverse_std: Vec<T>,
    /// The MLP's hidden activations, after the ReLU.
    pub hidden: Vec<T>,
    pub norm2_hat: Vec<T>,
    pub norm2_inverse_std: Vec<T>,
}

/// Every buffer of a step, allocated once for the largest batch seen and then reused.
#[derive(Debug, Clone, Default)]
pub struct Workspace<T> {
    pub sequences: usize,
    pub length: usize,
    /// The token embeddings before the convolution (`conv` only).
    pub embedded: Vec<T>,
    /// The input of every layer and the last layer's output (layers + 1 states, rows × d).
    pub states: Vec<Vec<T>>,
    pub layers: Vec<LayerCache<T>>,
    /// The logits, turned into probabilities by the loss.
    pub probabilities: Vec<T>,
    pub scratch: Scratch<T>,
    /// A weight matrix, transposed.
    pub transposed: Vec<T>,
    pub grad_x: Vec<T>,
    pub grad_mid: Vec<T>,
    pub grad_q: Vec<T>,
    pub grad_k: Vec<T>,
    pub grad_v: Vec<T>,
    pub grad_attended: Vec<T>,
    pub grad_hidden: Vec<T>,
}

impl<T: Real> Workspace<T> {
    fn prepare(&mut self, config: &TrainConfig, sequences: usize, length: usize) {
        self.sequences = sequences;
        self.length = length;
        let rows = sequences * length;
        let (d, hidden) = (config.d, config.mlp_width());
        self.states.resize_with(config.layers + 1, Vec::new);
        self.layers.resize_with(config.layers, LayerCache::default);
        for state in &mut self.states {
            grow(state, rows * d);
        }
        if config.encoding == Encoding::Conv {
            grow(&mut self.embedded, rows * d);
        }
        for cache in &mut self.layers {
            for buffer in [
                &mut cache.q,
                &mut cache.k,
                &mut cache.v,
                &mut cache.attended,
                &mut cache.mid,
            ] {
                grow(buffer, rows * d);
            }
            grow(
                &mut cache.weights,
                sequences * config.heads * length * length,
            );
            if config.layer_norm {
                grow(&mut cache.norm1_hat, rows * d);
                grow(&mut cache.norm1_inverse_std, rows);
                if config.mlp {
                    grow(&mut cache.norm2_hat, rows * d);
                    grow(&mut cache.norm2_inverse_std, rows);
                }
            }
            if config.mlp {
                grow(&mut cache.hidden, rows * hidden);
            }
        }
        grow(&mut self.probabilities, rows * config.classes());
        grow(
            &mut self.transposed,
            d * hidden.max(config.classes()).max(d),
        );
        for buffer in [
            &mut self.grad_x,
            &mut self.grad_mid,
            &mut self.grad_q,
            &mut self.grad_k,
            &mut self.grad_v,
            &mut self.grad_attended,
        ] {
            grow(buffer, rows * d);
        }
        if config.mlp {
            grow(&mut self.grad_hidden, rows * hidden);
        }
    }
}

/// A model: its configuration, where its parameters live, and its fixed position tables. The
/// parameters themselves are a flat slice passed to every pass, so that the same model can be
/// evaluated at perturbed parameters (the finite-difference checks).
#[derive(Debug, Clone)]
pub struct Model<T> {
    pub config: TrainConfig,
    pub layout: ParamLayout,
    pub tables: PositionTables<T>,
}

impl<T: Real> Model<T> {
    /// The model of a configuration that is in range (see [`TrainConfig::clamp`]).
    pub fn new(config: &TrainConfig) -> Self {
        Model {
            config: config.clone(),
            layout: ParamLayout::new(config),
            tables: PositionTables::new(config.encoding, config.causal, config.d, config.heads),
        }
    }

    pub fn attention_shape(&self, sequences: usize, length: usize) -> Shape {
        Shape {
            sequences,
            length,
            d: self.config.d,
            heads: self.config.heads,
            causal: self.config.causal,
            encoding: self.config.encoding,
        }
    }

    /// Runs the batch forward; leaves the probabilities and every cache in `ws` and returns the
    /// mean cross-entropy over the positions that have a target (0 if none has).
    pub fn forward(&mut self, params: &[T], batch: &Batch, ws: &mut Workspace<T>) -> T {
        self.tables.ensure(batch.length);
        self.run_layers(params, batch, ws);
        self.loss(params, batch, ws)
    }

    /// The embedding and every layer, leaving the last state in `ws.states[layers]`.
    pub fn run_layers(&self, params: &[T], batch: &Batch, ws: &mut Workspace<T>) {
        let (sequences, n) = (batch.sequences, batch.length);
        ws.prepare(&self.config, sequences, n);
        self.embed(params, batch, ws);
        for l in 0..self.config.layers {
            self.layer_forward(params, l, sequences, n, ws);
        }
    }

    fn embed(&self, params: &[T], batch: &Batch, ws: &mut Workspace<T>) {
        let c = &self.config;
        let (d, n) = (c.d, batch.length);
        let rows = batch.sequences * n;
        let appended = c.encoding.appended_width(d);
        let token_width = d - appended;
        let table = &params[self.layout.token_embedding..][..c.vocab * token_width];
        let x = &mut ws.states[0][..rows * d];
        for (r, (row, &token)) in x.chunks_exact_mut(d).zip(&batch.tokens).enumerate() {
            let i = r % n;
            row[..token_width].copy_from_slice(&table[token * token_width..][..token_width]);
            match c.encoding {
                Encoding::Concat => {
                    row[token_width..]
                        .copy_from_slice(&self.tables.sinusoid[i * appended..][..appended]);
                }
                Encoding::Sinusoidal => {
                    for (v, &p) in row
                        .iter_mut()
                        .zip(&self.tables.sinusoid[i * d..(i + 1) * d])
                    {
                        *v += p;
                    }
                }
                // Positions past the table have no row and get nothing added.
                Encoding::Learned if i < c.train_length => {
                    let table_row = &params[self.layout.position_table + i * d..][..d];
                    for (v, &p) in row.iter_mut().zip(table_row) {
                        *v += p;
                    }
                }
                _ => {}
            }
        }
        if c.encoding == Encoding::Conv {
            let embedded = &mut ws.embedded[..rows * d];
            embedded.copy_from_slice(x);
            let weight = &params[self.layout.conv_weight..][..CONV_KERNEL * d];
            add_bias(x, &params[self.layout.conv_bias..][..d]);
            let half = CONV_KERNEL / 2;
            for b in 0..batch.sequences {
                for i in 0..n {
                    let out = &mut x[(b * n + i) * d..][..d];
                    for (o, w) in weight.chunks_exact(d).enumerate() {
                        // Source position i + o − half; outside the sequence is zero padding.
                        let Some(source) = (i + o).checked_sub(half).filter(|&s| s < n) else {
                            continue;
                        };
                        let input = &embedded[(b * n + source) * d..][..d];
                        for ((v, &wc), &e) in out.iter_mut().zip(w).zip(input) {
                            *v += wc * e;
                        }
                    }
                }
            }
        }
    }

    fn layer_forward(
        &self,
        params: &[T],
        l: usize,
        sequences: usize,
        n: usize,
        ws: &mut Workspace<T>,
    ) {
        let c = &self.config;
        let o = &self.layout.layers[l];
        let (d, hidden) = (c.d, c.mlp_width());
        let rows = sequences * n;
        let shape = self.attention_shape(sequences, n);
        let (before, after) = ws.states.split_at_mut(l + 1);
        let x = &before[l][..rows * d];
        let out = &mut after[0][..rows * d];
        let cache = &mut ws.layers[l];
        let w = |offset: usize, len: usize| &params[offset..offset + len];
        matmul(x, w(o.w_q, d * d), &mut cache.q, rows, d, d, false);
        matmul(x, w(o.w_k, d * d), &mut cache.k, rows, d, d, false);
        matmul(x, w(o.w_v, d * d), &mut cache.v, rows, d, d, false);
        if c.encoding == Encoding::Rope {
            rope_rotate(&mut cache.q, &shape, &self.tables, false);
            rope_rotate(&mut cache.k, &shape, &self.tables, false);
        }
        let input = self.attention_inputs(&shape, params, l, [&cache.q, &cache.k, &cache.v]);
        attention::forward(
            &input,
            &mut cache.weights,
            &mut cache.attended,
            &mut ws.scratch,
        );
        let mid = &mut cache.mid[..rows * d];
        matmul(&cache.attended, w(o.w_o, d * d), mid, rows, d, d, false);
        for (m, &xv) in mid.iter_mut().zip(x) {
            *m += xv;
        }
        if c.layer_norm {
            layer_norm(
                mid,
                &mut cache.norm1_hat,
                &mut cache.norm1_inverse_std,
                w(o.norm1_gain, d),
                w(o.norm1_bias, d),
            );
        }
        if !c.mlp {
            out.copy_from_slice(mid);
            return;
        }
        let h = &mut cache.hidden[..rows * hidden];
        matmul(mid, w(o.mlp_in, d * hidden), h, rows, d, hidden, false);
        add_bias(h, w(o.mlp_in_bias, hidden));
        for v in h.iter_mut() {
            *v = v.max(T::ZERO);
        }
        matmul(h, w(o.mlp_out, hidden * d), out, rows, hidden, d, false);
        add_bias(out, w(o.mlp_out_bias, d));
        for (v, &m) in out.iter_mut().zip(mid.iter()) {
            *v += m;
        }
        if c.layer_norm {
            layer_norm(
                out,
                &mut cache.norm2_hat,
                &mut cache.norm2_inverse_std,
                w(o.norm2_gain, d),
                w(o.norm2_bias, d),
            );
        }
    }

    /// What layer `l`'s attention reads: the batch's `shape`, the position tables, the layer's
    /// relative tables in `params`, and its q, k (rotated for RoPE) and v.
    pub fn attention_inputs<'a>(
        &'a self,
        shape: &'a Shape,
        params: &'a [T],
        l: usize,
        [q, k, v]: [&'a [T]; 3],
    ) -> attention::Inputs<'a, T> {
        let (relative_key, relative_value) = self.relative_tables(params, l);
        attention::Inputs {
            shape,
            tables: &self.tables,
            relative_key,
            relative_value,
            q,
            k,
            v,
        }
    }

    /// Layer `l`'s T5 biases or Shaw tables (empty for the other schemes).
    pub fn relative_tables<'p>(&self, params: &'p [T], l: usize) -> (&'p [T], &'p [T]) {
        let o = &self.layout.layers[l];
        let c = &self.config;
        let rows = relative_rows(c.encoding);
        match c.encoding {
            Encoding::T5 => (&params[o.relative_key..][..c.heads * rows], &[]),
            Encoding::Shaw => {
                let len = c.heads * rows * c.head_width();
                (
                    &params[o.relative_key..][..len],
                    &params[o.relative_value..][..len],
                )
            }
            _ => (&[], &[]),
        }
    }

    /// The readout's logits at every position (rows × classes), into `ws.probabilities`.
    pub fn logits(&self, params: &[T], ws: &mut Workspace<T>) {
        let (d, classes) = (self.config.d, self.config.classes());
        let rows = ws.sequences * ws.length;
        let x = &ws.states[self.config.layers][..rows * d];
        let probabilities = &mut ws.probabilities[..rows * classes];
        matmul(
            x,
            &params[self.layout.readout..][..d * classes],
            probabilities,
            rows,
            d,
            classes,
            false,
        );
        add_bias(
            probabilities,
            &params[self.layout.readout_bias..][..classes],
        );
    }

    fn loss(&self, params: &[T], batch: &Batch, ws: &mut Workspace<T>) -> T {
        self.logits(params, ws);
        let classes = self.config.classes();
        let rows = batch.sequences * batch.length;
        let mut total = T::ZERO;
        let mut counted = 0usize;
        for (row, &target) in ws.probabilities[..rows * classes]
            .chunks_exact_mut(classes)
            .zip(&batch.targets)
        {
            if target == NO_TARGET {
                continue;
            }
            // −log softmax(z)_t = log Σ exp(z − max) − (z_t − max).
            let logit = row[target];
            let (max, sum) = softmax_in_place(row);
            total += sum.ln() - (logit - max);
            counted += 1;
        }
        if counted == 0 {
            T::ZERO
        } else {
            total / T::from_usize(counted)
        }
    }

    /// The number of positions of the batch with a target.
    pub fn counted(batch: &Batch) -> usize {
        batch.targets.iter().filter(|&&t| t != NO_TARGET).count()
    }
}
