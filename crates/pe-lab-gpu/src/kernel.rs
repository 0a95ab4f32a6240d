//! The host side that every compute kernel shares. Each kernel's `prepare` checks its own inputs,
//! grows its buffers, writes its uniforms and binds (its arguments differ from kernel to kernel, so
//! it is an inherent method, and so is `run`: `prepare`, then [`Kernel::submit`]); what follows a
//! `prepare` is the same for all: record its dispatches in one compute pass, submit them, hand out
//! the output buffer. What the prepares share lives beside it: the state of the four tiled kernels
//! and its binding in `tiled_kernel.rs`, the Q and K uploads of `run_host` and the checks of the
//! square score kernels in `host_qk.rs`, the size checks in `checks.rs`.
//!
//! The GPU trainer (train/) does not use it: its step is one encoder of many dispatches of a table
//! of entry points (train/kernels.rs) over one bind group and one arena, recorded by its plan.

use crate::pipelines::submit_one;
use crate::GpuError;

/// The bind group of a `prepare` and its dispatches, in order: (pipeline, workgroups).
pub type Dispatches<'a> = (
    &'a wgpu::BindGroup,
    Vec<(&'a wgpu::ComputePipeline, [u32; 3])>,
);

/// A compute kernel after its `prepare` (see the module docs).
pub trait Kernel {
    /// The label of its compute pass and of its submissions.
    const LABEL: &'static str;

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
