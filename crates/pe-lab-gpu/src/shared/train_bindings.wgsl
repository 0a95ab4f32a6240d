// The training kernels' bind group (train/kernels.rs, `Kernels::new`): binding 0 the op's
// parameters (each kernel file's own `Op`), binding 2 the arena (every f32 tensor of the run),
// binding 3 the batch's tokens and targets. Binding 1, the step's uniform, is train_loss.wgsl's.
@group(0) @binding(0) var<uniform> op: Op;
@group(0) @binding(2) var<storage, read_write> arena: array<f32>;
@group(0) @binding(3) var<storage, read> ints: array<u32>;

// The index of an invocation of a 64-wide workgroup in a grid that plan.rs spreads over x and y
// (a dispatch has at most 65,535 workgroups a dimension).
fn invocation(group: vec3<u32>, groups: vec3<u32>, lane: u32) -> u32 {
    return (group.y * groups.x + group.x) * 64u + lane;
}
