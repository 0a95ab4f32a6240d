//! Training the lab's attention model on the GPU: the same model, initial weights, batches, loss
//! and Adam as [`pe_lab_train::Trainer`], with every step's forward pass, backward pass and
//! update in WGSL (`train_matmul.wgsl`, `train_embed.wgsl`, `train_rope.wgsl`,
//! `train_norm.wgsl`, `train_attention.wgsl`, `train_shaw.wgsl`, `train_loss.wgsl`; the CPU twins
//! are the training crate's own functions, named in each file).
//!
//! Batches are sampled on the CPU by the crate's [`BatchStream`] and uploaded with the step. A
//! step is one command encoder, one compute pass and one `queue.submit`; its loss goes into a
//! ring of `readback_every` slots on the GPU. When the ring is full, a copy of it into a staging
//! buffer is queued behind the step and mapped; the trainer goes on submitting steps while the copy
//! travels, and [`GpuTrainer::step_paced`] waits only when [`READBACKS_IN_FLIGHT`] copies are
//! out. So the GPU is never idle waiting for a readback, and the CPU never runs more than two
//! rings ahead of it.
//!
//! Encodings: every scheme of the crate; [`supports`] says which, and a scheme it does not
//! (one added to the crate later) gives [`GpuTrainError::Unsupported`], never a fallback.
//!
//! Native (tests on lavapipe, the benchmark on a real GPU) and in the browser (the training
//! worker): every wait is a future. Natively it polls the device for the submission it waits
//! for; in the browser it resolves from the event loop, so it must be awaited, never blocked on.

mod backward;
pub mod kernels;
mod layout;
pub(crate) mod plan;

use pe_lab_train::adam::{BETA1, BETA2, EPSILON};
use pe_lab_train::config::MAX_STEPS;
use pe_lab_train::encodings::Encoding;
use pe_lab_train::params::ParamLayout;
use pe_lab_train::tasks::NO_TARGET;
use pe_lab_train::{Batch, BatchStream, Model, TrainConfig, TrainError};
use thiserror::Error;

use self::kernels::{Kernels, StepUniform, OP_SLOT};
use self::layout::ArenaLayout;
pub use self::plan::LongSums;
use self::plan::{record_step, Recorded, Recorder};
use super::{check_storage_size, read_f32, uniform_buffer, GpuError};

/// Loss readbacks that may be out at once: one travelling while the next ring fills.
pub const READBACKS_IN_FLIGHT: usize = 2;

/// A copy of the loss ring on its way back: the staging buffer it is copied into, the map
/// request's answer, and how many losses it holds.
struct Readback {
    staging: wgpu::Buffer,
    mapped: futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
    submission: wgpu::SubmissionIndex,
    count: usize,
}

/// Why a GPU training run cannot be built or stepped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuTrainError {
    #[error("the {} encoding is not implemented by the GPU trainer", .0.link_name())]
    Unsupported(Encoding),
    #[error("the loss is read back every 1 to {limit} steps, not every {requested}")]
    ReadbackEvery { requested: usize, limit: usize },
    #[error(transparent)]
    Config(#[from] TrainError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// Whether the GPU trainer implements `encoding`.
pub fn supports(encoding: Encoding) -> bool {
    matches!(
        encoding,
        Encoding::None
            | Encoding::Sinusoidal
            | Encoding::Concat
            | Encoding::Learned
            | Encoding::Rope
            | Encoding::Alibi
            | Encoding::T5
            | Encoding::Conv
            | Encoding::Shaw
    )
}

/// One training run on the GPU. Every method takes the device and queue the trainer was built on.
pub struct GpuTrainer {
    config: TrainConfig,
    params: ParamLayout,
    arena_layout: ArenaLayout,
    kernels: Kernels,
    arena: wgpu::Buffer,
    ints: wgpu::Buffer,
    step_uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    /// The dispatches of each batch length, from the shortest of the range.
    plans: Vec<Vec<Recorded>>,
    shortest: usize,
    data: BatchStream,
    batch: Batch,
    tokens: Vec<u32>,
    readback_every: usize,
    /// Steps whose loss is in the ring and not on its way back yet.
    pending: usize,
    /// Ring copies on their way back, oldest first.
    in_flight: std::collections::VecDeque<Readback>,
    /// Staging buffers of collected readbacks, to be used again (one ring's size each).
    spare_staging: Vec<wgpu::Buffer>,
    losses: Vec<f32>,
    steps_done: usize,
    beta1_power: f64,
    beta2_power: f64,
}

impl GpuTrainer {
    /// A run at step 0 of `config` (which must be in range, see [`TrainConfig::clamp`]), reading
    /// the loss back every `readback_every` steps, its long sums as `long_sums` says (the
    /// adapter's [`LongSums::for_adapter`] but in tests).
    pub async fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        config: TrainConfig,
        readback_every: usize,
        long_sums: LongSums,
    ) -> Result<Self, GpuTrainError> {
        check_request(&config, readback_every)?;
        let limits = device.limits();
        let params = ParamLayout::new(&config);
        let arena_layout = ArenaLayout::new(&config, params.total, readback_every);
        let bytes = arena_bytes(&limits, &arena_layout)?;
        let (shortest, longest) = config.length_range();
        let mut recorder = Recorder::new(&limits, long_sums);
        let plans = (shortest..=longest)
            .map(|n| record_step(&mut recorder, &config, &params, &arena_layout, n))
            .collect::<Result<Vec<_>, _>>()?;
        // Shader and pipeline errors become a typed error, not the uncaptured-error panic.
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let kernels = Kernels::new(device);
        if let Some(error) = scope.pop().await {
            return Err(GpuError::Validation(error.to_string()).into());
        }
        let buffers = Buffers::new(device, queue, &arena_layout, bytes, &recorder.bytes);
        buffers.upload_start(device, queue, &config, &params, &arena_layout);
        let bind_group = buffers.bind_group(device, &kernels);
        let Buffers {
            arena,
            ints,
            step_uniform,
            ..
        } = buffers;
        Ok(GpuTrainer {
            data: BatchStream::new(config.seed),
            config,
            params,
            arena_layout,
            kernels,
            arena,
            ints,
            step_uniform,
            bind_group,
            plans,
            shortest,
            batch: Batch::default(),
            tokens: Vec::new(),
            readback_every,
            pending: 0,
            in_flight: std::collections::VecDeque::new(),
            spare_staging: Vec::new(),
            losses: Vec::new(),
            steps_done: 0,
            beta1_power: 1.0,
            beta2_power: 1.0,
        })
    }

    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    /// Whether the configured number of steps has been taken (stepping on is allowed).
    pub fn is_done(&self) -> bool {
        self.steps_done >= self.config.steps
    }

    /// The loss of every step read back so far, in order (each the batch's loss before its
    /// update, as [`pe_lab_train::Trainer::step`] returns it).
    pub fn losses(&self) -> &[f32] {
        &self.losses
    }

    /// The batch of the last step.
    pub fn last_batch(&self) -> &Batch {
        &self.batch
    }

    /// One step on a fresh batch: upload it, record and submit forward, backward and Adam. Every
    /// `readback_every` steps the ring's copy is queued behind it (see [`GpuTrainer::settle`]);
    /// this never waits for the GPU.
    pub fn step(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<(), GpuTrainError> {
        self.data.next_batch(&self.config, &mut self.batch);
        let rows_max = self.arena_layout.rows_max;
        self.tokens.clear();
        self.tokens.resize(2 * rows_max, kernels::NO_TARGET_WORD);
        let (tokens, targets) = self.tokens.split_at_mut(rows_max);
        for (slot, &token) in tokens.iter_mut().zip(&self.batch.tokens) {
            // Tokens are below the vocabulary (≤ 64).
            *slot = token as u32;
        }
        for (slot, &target) in targets.iter_mut().zip(&self.batch.targets) {
            if target != NO_TARGET {
                *slot = target as u32;
            }
        }
        queue.write_buffer(&self.ints, 0, bytemuck::cast_slice(&self.tokens));
        // As Adam::update computes them: β powers as running f64 products, rounded once.
        self.beta1_power *= BETA1;
        self.beta2_power *= BETA2;
        let learning_rate = self.config.learning_rate;
        let counted = Model::<f32>::counted(&self.batch);
        let (beta1, beta2) = (BETA1 as f32, BETA2 as f32);
        let uniform = StepUniform {
            step_size: (learning_rate / (1.0 - self.beta1_power)) as f32,
            inverse_correction: (1.0 / (1.0 - self.beta2_power).sqrt()) as f32,
            beta1,
            beta2,
            one_minus_beta1: 1.0 - beta1,
            one_minus_beta2: 1.0 - beta2,
            epsilon: EPSILON as f32,
            inverse_count: if counted == 0 {
                0.0
            } else {
                1.0 / counted as f32
            },
            count: counted as f32,
            loss_slot: self.pending as u32,
            _pad: [0; 2],
        };
        queue.write_buffer(&self.step_uniform, 0, bytemuck::bytes_of(&uniform));
        let plan = &self.plans[self.batch.length - self.shortest];
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("train step"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("train step"),
                timestamp_writes: None,
            });
            for op in plan {
                pass.set_pipeline(self.kernels.pipeline(op.kernel));
                pass.set_bind_group(0, &self.bind_group, &[op.offset]);
                let [x, y, z] = op.groups;
                pass.dispatch_workgroups(x, y, z);
            }
        }
        queue.submit([encoder.finish()]);
        self.steps_done += 1;
        self.pending += 1;
        if self.pending == self.readback_every {
            self.queue_readback(device, queue);
        }
        Ok(())
    }

    /// [`GpuTrainer::step`], then, when [`READBACKS_IN_FLIGHT`] ring copies are out, waits for
    /// the oldest: the pace at which a caller should step (the GPU runs at most two rings behind).
    pub async fn step_paced(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<(), GpuTrainError> {
        self.step(device, queue)?;
        if self.in_flight.len() >= READBACKS_IN_FLIGHT {
            self.settle(device, READBACKS_IN_FLIGHT - 1).await?;
        }
        Ok(())
    }

    /// Ring copies queued and not collected yet.
    pub fn readbacks_in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Copies the ring's `pending` losses into a staging buffer behind the last step and asks
    /// for it to be mapped; the steps after it may overwrite the ring (the copy runs first).
    fn queue_readback(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) {
        let count = std::mem::take(&mut self.pending);
        if count == 0 {
            return;
        }
        let ring_bytes = self.readback_every as u64 * 4;
        let staging = self.spare_staging.pop().unwrap_or_else(|| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("train loss readback"),
                size: ring_bytes.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("train loss readback"),
        });
        let ring_at = self.arena_layout.losses as u64 * 4;
        encoder.copy_buffer_to_buffer(&self.arena, ring_at, &staging, 0, count as u64 * 4);
        let submission = queue.submit([encoder.finish()]);
        let (sender, mapped) = futures_channel::oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, ..count as u64 * 4, move |result| {
            // The receiver is gone only if the trainer was dropped; nothing to tell then.
            let _ = sender.send(result);
        });
        self.in_flight.push_back(Readback {
            staging,
            mapped,
            submission,
            count,
        });
    }

    /// Collects ring copies, oldest first, until at most `keep` are out, appending their losses.
    /// Natively this polls the device until the oldest copy's submission is done; in the browser
    /// the map callbacks come from the event loop while this is awaited.
    pub async fn settle(
        &mut self,
        device: &wgpu::Device,
        keep: usize,
    ) -> Result<(), GpuTrainError> {
        while self.in_flight.len() > keep {
            let Some(readback) = self.in_flight.pop_front() else {
                break;
            };
            #[cfg(not(target_arch = "wasm32"))]
            device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(readback.submission.clone()),
                    timeout: None,
                })
                .map_err(|e| GpuError::Map(e.to_string()))?;
            #[cfg(target_arch = "wasm32")]
            let _ = (device, &readback.submission);
            readback
                .mapped
                .await
                .map_err(|_| GpuError::Map("the loss readback's map callback was dropped".into()))?
                .map_err(|e| GpuError::Map(e.to_string()))?;
            {
                let view = readback
                    .staging
                    .get_mapped_range(..readback.count as u64 * 4)
                    .map_err(|e| GpuError::Map(e.to_string()))?;
                self.losses
                    .extend_from_slice(bytemuck::cast_slice::<u8, f32>(&view));
            }
            readback.staging.unmap();
            self.spare_staging.push(readback.staging);
        }
        Ok(())
    }

    /// Reads back the losses of every step not read yet (call after the last step).
    pub async fn finish(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<(), GpuTrainError> {
        self.queue_readback(device, queue);
        self.settle(device, 0).await
    }

    async fn read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        offset: usize,
        len: usize,
    ) -> Result<Vec<f32>, GpuTrainError> {
        Ok(read_f32(device, queue, &self.arena, offset as u64, len as u64).await?)
    }

    /// The parameters as they are now (in [`ParamLayout`] order).
    pub async fn parameters(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<f32>, GpuTrainError> {
        self.read(device, queue, self.arena_layout.params, self.params.total)
            .await
    }

    /// The gradient of the last step's loss at the parameters before its update.
    pub async fn gradients(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<f32>, GpuTrainError> {
        self.read(device, queue, self.arena_layout.grads, self.params.total)
            .await
    }

    /// Where every parameter tensor lives (the CPU trainer's layout).
    pub fn layout(&self) -> &ParamLayout {
        &self.params
    }

    /// The number of dispatches of a step at the longest length.
    pub fn dispatches_per_step(&self) -> usize {
        self.plans.last().map_or(0, Vec::len)
    }
}

/// Refuses a configuration out of range, an encoding the GPU trainer lacks, or a readback period
/// the loss ring cannot hold.
fn check_request(config: &TrainConfig, readback_every: usize) -> Result<(), GpuTrainError> {
    let notices = config.clamp().1;
    if !notices.is_empty() {
        return Err(TrainError::OutOfRange(notices).into());
    }
    if !supports(config.encoding) {
        return Err(GpuTrainError::Unsupported(config.encoding));
    }
    // The ring holds one loss per step between readbacks: at most a whole run's.
    if readback_every == 0 || readback_every > MAX_STEPS {
        return Err(GpuTrainError::ReadbackEvery {
            requested: readback_every,
            limit: MAX_STEPS,
        });
    }
    Ok(())
}

/// The arena's size in bytes, checked against the device's storage limit and the shaders' u32
/// offsets.
fn arena_bytes(limits: &wgpu::Limits, arena_layout: &ArenaLayout) -> Result<u64, GpuError> {
    let bytes = (arena_layout.total as u64).saturating_mul(4);
    check_storage_size(limits, "the training arena (bytes)", bytes)?;
    // Offsets are u32 in the shaders.
    if arena_layout.total > u32::MAX as usize {
        return Err(GpuError::TooLarge {
            what: "the training arena (entries)",
            requested: arena_layout.total as u64,
            limit: u64::from(u32::MAX),
        });
    }
    Ok(bytes)
}

/// The buffers of a run: the f32 arena, the tokens and targets (then T5's offset buckets), the
/// ops' uniforms of every length, and the step's uniform.
struct Buffers {
    arena: wgpu::Buffer,
    ints: wgpu::Buffer,
    ops: wgpu::Buffer,
    step_uniform: wgpu::Buffer,
}

impl Buffers {
    /// Creates them (the arena `bytes` long) and writes the recorded ops' uniforms.
    fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        arena_layout: &ArenaLayout,
        bytes: u64,
        op_bytes: &[u8],
    ) -> Self {
        let arena = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("train arena"),
            size: bytes.max(16).next_multiple_of(16),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let ints = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("train tokens and targets"),
            size: ((2 * arena_layout.rows_max + arena_layout.offset_rows.len()) as u64 * 4)
                .next_multiple_of(16),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let ops = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("train ops"),
            size: op_bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&ops, 0, op_bytes);
        let step_uniform = uniform_buffer(
            device,
            "train step",
            std::mem::size_of::<StepUniform>() as u64,
        );
        Buffers {
            arena,
            ints,
            ops,
            step_uniform,
        }
    }

    /// Writes the run's start: the initial parameters, T5's offset buckets, the fixed position
    /// tables, and zero moments for Adam.
    fn upload_start(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        config: &TrainConfig,
        params: &ParamLayout,
        arena_layout: &ArenaLayout,
    ) {
        let initial: Vec<f32> = params.initial_values(config.seed);
        queue.write_buffer(&self.arena, 0, bytemuck::cast_slice(&initial));
        let offset_rows_at = arena_layout.offset_rows_at as u64 * 4;
        let offset_rows = bytemuck::cast_slice(&arena_layout.offset_rows);
        queue.write_buffer(&self.ints, offset_rows_at, offset_rows);
        for (offset, values) in &arena_layout.tables {
            if !values.is_empty() {
                queue.write_buffer(
                    &self.arena,
                    *offset as u64 * 4,
                    bytemuck::cast_slice(values),
                );
            }
        }
        // Adam's moments start at zero; so does everything else, for tidiness.
        let mut encoder = device.create_command_encoder(&Default::default());
        let moments = arena_layout.first as u64 * 4;
        encoder.clear_buffer(&self.arena, moments, Some(2 * params.total as u64 * 4));
        queue.submit([encoder.finish()]);
    }

    /// The one bind group of every kernel: an op's uniform slot (its offset dynamic), the step's
    /// uniform, the arena and the ints.
    fn bind_group(&self, device: &wgpu::Device, kernels: &Kernels) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("train"),
            layout: &kernels.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &self.ops,
                        offset: 0,
                        size: wgpu::BufferSize::new(OP_SLOT),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.step_uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: self.arena.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: self.ints.as_entire_binding(),
                },
            ],
        })
    }
}
