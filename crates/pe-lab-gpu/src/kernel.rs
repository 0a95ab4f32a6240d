//! The host side that every compute kernel shares. Each kernel's [`Kernel::prepare`] checks its own
//! inputs ([`Kernel::Args`]: its buffers and shape, spelled out like its CPU twin's arguments),
//! grows its buffers, writes its uniforms and binds; what follows a `prepare` is the same for all:
//! record its dispatches in one compute pass, submit them, hand out the output buffer
//! ([`Kernel::run`] is `prepare`, then [`Kernel::submit`]). What the prepares share lives beside
//! it: the state of the untiled kernels in `plain_kernel.rs`, of the four tiled kernels in
//! `tiled_kernel.rs`, the Q and K uploads of the score kernels' `run_host` in `host_qk.rs`, the
//! size checks in `checks.rs`.
//!
//! The GPU trainer (train/) does not use it: its step is one encoder of many dispatches of a table
//! of entry points (train/kernels.rs) over one bind group and one arena, recorded by its plan.

use crate::pipelines::submit_one;
pub use crate::pipelines::Dispatches;
use crate::GpuError;

/// A compute kernel after its `prepare` (see the module docs).
pub trait Kernel {
    /// The label of its compute pass and of its submissions.
    const LABEL: &'static str;

    /// What a `prepare` takes besides the device and the queue: the input buffers already on the
    /// GPU and the shape (a tuple, in the order of the CPU twin's arguments).
    type Args<'a>;

    /// Checks the arguments against the kernel's and the device's limits, grows the buffers,
    /// writes the uniforms and binds; nothing is dispatched.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        args: Self::Args<'_>,
    ) -> Result<(), GpuError>;

    /// [`Kernel::prepare`], then [`Kernel::submit`]: the output buffer (which may be longer than
    /// this run's output: it only grows).
    fn run(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        args: Self::Args<'_>,
    ) -> Result<&wgpu::Buffer, GpuError> {
        self.prepare(device, queue, args)?;
        self.submit(device, queue)
    }

    /// The bind group of the last successful `prepare` and the dispatches it set up; `None`
    /// before a successful `prepare`.
    fn dispatches(&self) -> Option<Dispatches<'_>>;

    /// The output buffer (`STORAGE | COPY_SRC`), once a `prepare` has allocated it.
    fn buffer(&self) -> Option<&wgpu::Buffer>;

    /// Records the dispatches prepared last into one compute pass (wgpu orders the storage writes
    /// of one dispatch before the reads of the next); nothing before a successful `prepare`.
    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        if let Some(dispatches) = self.dispatches() {
            encode_pass(encoder, Self::LABEL, dispatches, timestamp_writes);
        }
    }

    /// Submits the dispatches prepared last in an encoder of their own; the output buffer.
    fn submit(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<&wgpu::Buffer, GpuError> {
        submit_one(device, queue, Self::LABEL, |encoder| {
            self.encode(encoder, None)
        });
        self.buffer()
            .ok_or_else(|| GpuError::Map(format!("the {} output is missing", Self::LABEL)))
    }
}

// Not generic, so that the page's wasm carries it once rather than once per kernel.
fn encode_pass(
    encoder: &mut wgpu::CommandEncoder,
    label: &'static str,
    (bind_group, dispatches): Dispatches<'_>,
    timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes,
    });
    pass.set_bind_group(0, bind_group, &[]);
    for (pipeline, [x, y, z]) in dispatches {
        pass.set_pipeline(pipeline);
        pass.dispatch_workgroups(x, y, z);
    }
}
