// The training kernels' bind group (train/kernels.rs, `Kernels::new`): binding 0 the op's
// parameters (each kernel file's own `Op`), binding 2 the arena (every f32 tensor of the run),
// binding 3 the batch's tokens and targets. Binding 1, the step's uniform, is train_loss.wgsl's.
@group(0) @binding(0) var<uniform> op: Op;
@group(0) @binding(2) var<storage, read_write> arena: array<f32>;
@group(0) @binding(3) var<storage, read> ints: array<u32>;

// Where a workgroup is in the grid that plan.rs spreads over x and y (a dispatch has at most
// 65,535 workgroups a dimension): an entry point's built-ins, declared here once. Both are the
// same for every lane of a workgroup, so an early return on `workgroup_index` keeps the barriers
// after it in uniform control (the lane, which is not, stays a parameter of its own).
struct Grid {
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
}

// The workgroup's index in the grid.
fn workgroup_index(grid: Grid) -> u32 {
    return grid.group.y * grid.groups.x + grid.group.x;
}

// The index of an invocation of a 64-wide workgroup.
fn invocation(grid: Grid, lane: u32) -> u32 {
    return workgroup_index(grid) * 64u + lane;
}
