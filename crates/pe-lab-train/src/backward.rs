//! The backward pass, written by hand: the gradient of the mean cross-entropy with respect to
//! every parameter, from the caches the forward pass left in the workspace.

use crate::attention::{self, rope_rotate};
use crate::encodings::{relative_rows, Encoding, CONV_KERNEL};
use crate::linalg::{layer_norm_backward, linear_backward, sum_rows, LinearGrads};
use crate::model::{Model, Workspace};
use crate::real::Real;
use crate::tasks::{Batch, NO_TARGET};

/// Two disjoint mutable ranges of one slice (`first` must end before `second` starts).
fn two_mut<T>(
    values: &mut [T],
    first: usize,
    first_len: usize,
    second: usize,
    second_len: usize,
) -> (&mut [T], &mut [T]) {
    let (head, tail) = values.split_at_mut(second);
    (&mut head[first..first + first_len], &mut tail[..second_len])
}

/// The layer a step of the backward pass is in: the parameters, the layer's index and the batch.
#[derive(Clone, Copy)]
struct Layer<'a, T> {
    params: &'a [T],
    l: usize,
    batch: &'a Batch,
}

impl<T> Layer<'_, T> {
    /// The batch's rows: sequences × length.
    fn rows(&self) -> usize {
        self.batch.sequences * self.batch.length
    }
}

impl<T: Real> Model<T> {
    /// Writes into `grads` (overwritten, same layout as the parameters) the gradient of the loss
    /// that [`Model::forward`] just computed on `batch` with `params`.
    pub fn backward(&self, params: &[T], batch: &Batch, ws: &mut Workspace<T>, grads: &mut [T]) {
        grads.fill(T::ZERO);
        let c = &self.config;
        let (d, classes) = (c.d, c.classes());
        let rows = batch.sequences * batch.length;
        let counted = Self::counted(batch);
        if counted == 0 {
            return;
        }
        // The loss is the mean over the counted positions: ∂/∂z = (softmax(z) − onehot)/count.
        let inverse = T::ONE / T::from_usize(counted);
        let grad_logits = &mut ws.probabilities[..rows * classes];
        for (row, &target) in grad_logits.chunks_exact_mut(classes).zip(&batch.targets) {
            if target == NO_TARGET {
                row.fill(T::ZERO);
                continue;
            }
            row[target] -= T::ONE;
            for v in row.iter_mut() {
                *v *= inverse;
            }
        }
        let last = &ws.states[c.layers][..rows * d];
        let readout = self.layout.readout;
        let (weight, bias) = two_mut(
            grads,
            readout,
            d * classes,
            self.layout.readout_bias,
            classes,
        );
        linear_backward(
            last,
            grad_logits,
            &params[readout..readout + d * classes],
            LinearGrads {
                weight,
                bias: Some(bias),
            },
            &mut ws.transposed,
            &mut ws.grad_x,
            (rows, d, classes),
            false,
        );
        for l in (0..c.layers).rev() {
            self.layer_backward(Layer { params, l, batch }, ws, grads);
        }
        self.embed_backward(params, batch, ws, grads);
    }

    /// One layer's backward pass: `ws.grad_x` holds the gradient of the layer's output on entry
    /// and of its input on return.
    fn layer_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        if self.config.mlp {
            self.mlp_output_backward(at, ws, grads);
            self.mlp_input_backward(at, ws, grads);
        } else {
            // Without an MLP the layer's output is its middle: the gradient passes as it is.
            std::mem::swap(&mut ws.grad_mid, &mut ws.grad_x);
        }
        self.output_projection_backward(at, ws, grads);
        self.attention_layer_backward(at, ws, grads);
        self.qkv_backward(at, ws, grads);
    }

    /// The second layer norm (in place on `ws.grad_x`), the MLP's output projection and its bias,
    /// then the gradient of the hidden activations through the ReLU, into `ws.grad_hidden`.
    fn mlp_output_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        let Layer { params, l, .. } = at;
        let rows = at.rows();
        let c = &self.config;
        let o = &self.layout.layers[l];
        let (d, hidden) = (c.d, c.mlp_width());
        let cache = &ws.layers[l];
        let w = |offset: usize, len: usize| &params[offset..offset + len];
        let grad_out = &mut ws.grad_x[..rows * d];
        if c.layer_norm {
            let (gain_grad, bias_grad) = two_mut(grads, o.norm2_gain, d, o.norm2_bias, d);
            layer_norm_backward(
                grad_out,
                &cache.norm2_hat,
                &cache.norm2_inverse_std,
                w(o.norm2_gain, d),
                gain_grad,
                bias_grad,
            );
        }
        let h = &cache.hidden[..rows * hidden];
        let (weight, bias) = two_mut(grads, o.mlp_out, hidden * d, o.mlp_out_bias, d);
        let grad_hidden = &mut ws.grad_hidden[..rows * hidden];
        linear_backward(
            h,
            grad_out,
            w(o.mlp_out, hidden * d),
            LinearGrads {
                weight,
                bias: Some(bias),
            },
            &mut ws.transposed,
            grad_hidden,
            (rows, hidden, d),
            false,
        );
        for (g, &a) in grad_hidden.iter_mut().zip(h) {
            if a <= T::ZERO {
                *g = T::ZERO;
            }
        }
    }

    /// The MLP's input projection and its bias, and the gradient of the layer's middle: the
    /// residual's (`ws.grad_x`) plus the MLP's, into `ws.grad_mid`.
    fn mlp_input_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        let Layer { params, l, .. } = at;
        let rows = at.rows();
        let c = &self.config;
        let o = &self.layout.layers[l];
        let (d, hidden) = (c.d, c.mlp_width());
        let mid = &ws.layers[l].mid[..rows * d];
        let grad_hidden = &ws.grad_hidden[..rows * hidden];
        ws.grad_mid[..rows * d].copy_from_slice(&ws.grad_x[..rows * d]);
        let (weight, bias) = two_mut(grads, o.mlp_in, d * hidden, o.mlp_in_bias, hidden);
        linear_backward(
            mid,
            grad_hidden,
            &params[o.mlp_in..o.mlp_in + d * hidden],
            LinearGrads {
                weight,
                bias: Some(bias),
            },
            &mut ws.transposed,
            &mut ws.grad_mid,
            (rows, d, hidden),
            true,
        );
    }

    /// The first layer norm (in place on `ws.grad_mid`) and the attention's output projection:
    /// the gradient of w_o and of the heads' outputs, into `ws.grad_attended`.
    fn output_projection_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        let Layer { params, l, .. } = at;
        let rows = at.rows();
        let c = &self.config;
        let o = &self.layout.layers[l];
        let d = c.d;
        let cache = &ws.layers[l];
        let w = |offset: usize, len: usize| &params[offset..offset + len];
        let grad_mid = &mut ws.grad_mid[..rows * d];
        if c.layer_norm {
            let (gain_grad, bias_grad) = two_mut(grads, o.norm1_gain, d, o.norm1_bias, d);
            layer_norm_backward(
                grad_mid,
                &cache.norm1_hat,
                &cache.norm1_inverse_std,
                w(o.norm1_gain, d),
                gain_grad,
                bias_grad,
            );
        }
        linear_backward(
            &cache.attended,
            grad_mid,
            w(o.w_o, d * d),
            LinearGrads {
                weight: &mut grads[o.w_o..][..d * d],
                bias: None,
            },
            &mut ws.transposed,
            &mut ws.grad_attended,
            (rows, d, d),
            false,
        );
    }

    /// The attention's backward pass: the gradients of q, k, v (un-rotated for RoPE) into
    /// `ws.grad_q`, `ws.grad_k`, `ws.grad_v`, and of the layer's relative tables.
    fn attention_layer_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        let Layer { params, l, batch } = at;
        let c = &self.config;
        let o = &self.layout.layers[l];
        let cache = &ws.layers[l];
        let shape = self.attention_shape(batch.sequences, batch.length);
        let relative_len = match c.encoding {
            Encoding::T5 => c.heads * relative_rows(c.encoding),
            Encoding::Shaw => c.heads * relative_rows(c.encoding) * c.head_width(),
            _ => 0,
        };
        let (grad_relative_key, grad_relative_value) = if c.encoding == Encoding::Shaw {
            two_mut(
                grads,
                o.relative_key,
                relative_len,
                o.relative_value,
                relative_len,
            )
        } else {
            let (head, tail) = grads.split_at_mut(o.relative_key + relative_len);
            (&mut head[o.relative_key..], &mut tail[..0])
        };
        let input = self.attention_inputs(&shape, params, l, [&cache.q, &cache.k, &cache.v]);
        let grads = attention::Grads {
            q: &mut ws.grad_q,
            k: &mut ws.grad_k,
            v: &mut ws.grad_v,
            relative_key: grad_relative_key,
            relative_value: grad_relative_value,
        };
        attention::backward(
            &input,
            &cache.weights,
            &ws.grad_attended,
            grads,
            &mut ws.scratch,
        );
        if c.encoding == Encoding::Rope {
            rope_rotate(&mut ws.grad_q, &shape, &self.tables, true);
            rope_rotate(&mut ws.grad_k, &shape, &self.tables, true);
        }
    }

    /// The projections w_q, w_k, w_v, and the gradient of the layer's input: the residual's
    /// (`ws.grad_mid`) plus the three projections', into `ws.grad_x`.
    fn qkv_backward(&self, at: Layer<T>, ws: &mut Workspace<T>, grads: &mut [T]) {
        let Layer { params, l, .. } = at;
        let rows = at.rows();
        let o = &self.layout.layers[l];
        let d = self.config.d;
        let x = &ws.states[l][..rows * d];
        let grad_x = &mut ws.grad_x[..rows * d];
        grad_x.copy_from_slice(&ws.grad_mid[..rows * d]);
        for (weight, grad) in [
            (o.w_q, &ws.grad_q),
            (o.w_k, &ws.grad_k),
            (o.w_v, &ws.grad_v),
        ] {
            linear_backward(
                x,
                grad,
                &params[weight..weight + d * d],
                LinearGrads {
                    weight: &mut grads[weight..][..d * d],
                    bias: None,
                },
                &mut ws.transposed,
                grad_x,
                (rows, d, d),
                true,
            );
        }
    }

    fn embed_backward(&self, params: &[T], batch: &Batch, ws: &mut Workspace<T>, grads: &mut [T]) {
        let c = &self.config;
        let (d, n) = (c.d, batch.length);
        let rows = batch.sequences * n;
        let grad_x = &ws.grad_x[..rows * d];
        match c.encoding {
            Encoding::Learned => {
                for (r, g) in grad_x.chunks_exact(d).enumerate() {
                    let i = r % n;
                    if i < c.train_length {
                        let table_row = &mut grads[self.layout.position_table + i * d..][..d];
                        for (t, &v) in table_row.iter_mut().zip(g) {
                            *t += v;
                        }
                    }
                }
            }
            Encoding::Conv => {
                sum_rows(grad_x, &mut grads[self.layout.conv_bias..][..d]);
                let grad_embedded = &mut ws.grad_mid[..rows * d];
                grad_embedded.copy_from_slice(grad_x);
                let weight = &params[self.layout.conv_weight..][..CONV_KERNEL * d];
                let half = CONV_KERNEL / 2;
                for b in 0..batch.sequences {
                    for i in 0..n {
                        let g = &grad_x[(b * n + i) * d..][..d];
                        for (k, w) in weight.chunks_exact(d).enumerate() {
                            let Some(source) = (i + k).checked_sub(half).filter(|&s| s < n) else {
                                continue;
                            };
                            let at = (b * n + source) * d;
                            let input = &ws.embedded[at..at + d];
                            let grad_w = &mut grads[self.layout.conv_weight + k * d..][..d];
                            for ch in 0..d {
                                grad_w[ch] += input[ch] * g[ch];
                                grad_embedded[at + ch] += w[ch] * g[ch];
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        let grad_tokens = if c.encoding == Encoding::Conv {
            &ws.grad_mid[..rows * d]
        } else {
            grad_x
        };
        let token_width = d - c.encoding.appended_width(d);
        for (g, &token) in grad_tokens.chunks_exact(d).zip(&batch.tokens) {
            let row =
                &mut grads[self.layout.token_embedding + token * token_width..][..token_width];
            for (t, &v) in row.iter_mut().zip(g) {
                *t += v;
            }
        }
    }
}
