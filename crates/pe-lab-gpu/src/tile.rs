//! The tile core shared by the four product kernels (Gram, attention, ALiBi and RoPE scores): one
//! WGSL tiled product (`tile_core.wgsl`) composed with each kernel's own WGSL (its bindings, loads,
//! epilogue and any other passes), with the tile constants written into the source from one
//! [`TileShape`]. The kernels read their dispatch sizes from the same shape, so the constants live
//! here only.
//!
//! WGSL has no includes, so [`compose`] builds the source: a header of constants, the core with
//! the load section of the chosen element type (scalar `f32`, or `vec4<f32>` loads along k when
//! the rows allow it) and its marked lines replaced by text unrolled for the shape (named vec4
//! accumulators, the register-staged blocks, every step of a stage, the store; see
//! `tile_core.wgsl`), then the kernel. [`TiledPipelines`] caches one set of pipelines per
//! [`Variant`] it is asked for.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::pipelines::pipelines_from_source;
use crate::wgsl::{wgsl, WgslFile, WgslSource};

/// The shape of one workgroup's tile: SIDE × SIDE invocations, each a BLOCK × BLOCK block, so a
/// TILE × TILE tile (TILE = SIDE·BLOCK), staged TILE_K columns at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileShape {
    /// Invocations per side of the workgroup.
    pub side: u32,
    /// Entries per invocation along each side (a multiple of 4: vec4 accumulators).
    pub block: u32,
    /// Columns staged per barrier pair (a multiple of 4: vec4 loads).
    pub tile_k: u32,
}

impl TileShape {
    /// 128 × 128 tiles, 8 × 8 per invocation, 16 columns a stage (16 KiB, WebGPU's default
    /// limit): the most reuse of each staged value, for grids with enough workgroups to fill the
    /// device. On an H200 at n = 4096 (d = 512) 16 columns a stage beat 8: attention 0.718 ms
    /// against 0.779.
    pub const LARGE: TileShape = TileShape {
        side: 16,
        block: 8,
        tile_k: 16,
    };
    /// 64 × 64 tiles, 4 × 4 per invocation: four times the workgroups of [`TileShape::LARGE`], for
    /// grids too small to fill a large GPU. Within WebGPU's guaranteed limits (256 invocations,
    /// 8 KiB of workgroup storage), so it is the fallback on any adapter. On an H200 16 columns a
    /// stage were as fast as 32 at n = 1024 and faster at 4096 (attention 0.952 ms against 1.013),
    /// and waste less on narrow heads.
    pub const SMALL: TileShape = TileShape {
        side: 16,
        block: 4,
        tile_k: 16,
    };
    /// Every shape [`choose_tile`] can return, largest tile first.
    pub const ALL: [TileShape; 2] = [TileShape::LARGE, TileShape::SMALL];

    /// Edge of the square tile a workgroup computes.
    pub const fn tile(self) -> u32 {
        self.side * self.block
    }

    /// Invocations per workgroup.
    pub const fn invocations(self) -> u32 {
        self.side * self.side
    }

    /// Workgroup memory of the two staged strips, in bytes.
    pub const fn workgroup_bytes(self) -> u32 {
        2 * self.tile() * self.tile_k * 4
    }

    /// 4 × 4 blocks staged per step (both strips); each invocation stages
    /// [`TileShape::stage_slots`] of them.
    pub const fn stage_blocks(self) -> u32 {
        2 * (self.tile() / 4) * (self.tile_k / 4)
    }

    /// Blocks each invocation stages per step (the last round may leave invocations idle).
    pub const fn stage_slots(self) -> u32 {
        self.stage_blocks().div_ceil(self.invocations())
    }

    /// `side`x`block`x`tile_k`, e.g. "16x8x16" (the bench's sweep names shapes so).
    pub fn parse(text: &str) -> Option<TileShape> {
        let mut parts = text.split('x').map(|part| part.trim().parse::<u32>().ok());
        let shape = TileShape {
            side: parts.next()??,
            block: parts.next()??,
            tile_k: parts.next()??,
        };
        (parts.next().is_none()
            && shape.side > 0
            && shape.block > 0
            && shape.block % 4 == 0
            && shape.tile_k > 0
            && shape.tile_k % 4 == 0)
            .then_some(shape)
    }

    /// Workgroups along a dimension of `n` entries.
    pub fn groups(self, n: usize) -> u64 {
        (n as u64).div_ceil(u64::from(self.tile()))
    }

    /// Whether a workgroup of this shape is within `limits`.
    pub fn fits(self, limits: &wgpu::Limits) -> bool {
        self.invocations() <= limits.max_compute_invocations_per_workgroup
            && self.side <= limits.max_compute_workgroup_size_x
            && self.side <= limits.max_compute_workgroup_size_y
            && self.workgroup_bytes() <= limits.max_compute_workgroup_storage_size
    }
}

/// Workgroups a grid should have before the chooser takes the large tile on a GPU: about two per
/// streaming multiprocessor of a 132-SM H100 or H200, the occupancy at which the large tile's
/// reuse outweighs its last, partly filled wave. Measured on an H200 (d = 512, medians, the bench's
/// tile sweep): attention at n = 1024 (64 large tiles) 0.099 ms large, 0.076 ms small; at n = 2048
/// (256 large tiles) 0.188 ms large, 0.242 ms small; Gram at n = 2048 (136 large tiles computed,
/// see [`choose_tile_upper`]) 0.168 ms large, 0.137 ms small; at 4096 (528) 0.405 large, 0.467
/// small. Software adapters (lavapipe) run workgroups on a few CPU threads, where any grid fills
/// the device and the larger tile's reuse pays.
pub const FULL_GRID_WORKGROUPS: u64 = 256;

/// The tile shape for a product of `rows` × `cols` entries, `slices` times (e.g. sequences·heads),
/// on an adapter of `device_type` with `limits`: the largest shape within the limits whose grid
/// has at least [`FULL_GRID_WORKGROUPS`] workgroups (or any grid on a CPU adapter), else the
/// fitting shape with the most workgroups. [`TileShape::SMALL`] when nothing fits.
pub fn choose_tile(
    rows: usize,
    cols: usize,
    slices: usize,
    device_type: wgpu::DeviceType,
    limits: &wgpu::Limits,
) -> TileShape {
    choose_by_grid(
        |shape| shape.groups(rows) * shape.groups(cols) * (slices.max(1) as u64),
        device_type,
        limits,
    )
}

/// [`choose_tile`] for an n × n product of which only the tiles on and above the diagonal run
/// (Gram's symmetry, ALiBi's causal mask): T(T + 1)/2 workgroups of T per side do the work.
pub fn choose_tile_upper(
    n: usize,
    device_type: wgpu::DeviceType,
    limits: &wgpu::Limits,
) -> TileShape {
    choose_by_grid(
        |shape| {
            let side = shape.groups(n);
            side * (side + 1) / 2
        },
        device_type,
        limits,
    )
}

fn choose_by_grid(
    grid: impl Fn(TileShape) -> u64,
    device_type: wgpu::DeviceType,
    limits: &wgpu::Limits,
) -> TileShape {
    let fitting: Vec<TileShape> = TileShape::ALL
        .into_iter()
        .filter(|shape| shape.fits(limits))
        .collect();
    let Some(&smallest) = fitting.last() else {
        return TileShape::SMALL;
    };
    if device_type == wgpu::DeviceType::Cpu {
        return fitting[0];
    }
    fitting
        .into_iter()
        .find(|&shape| grid(shape) >= FULL_GRID_WORKGROUPS)
        .unwrap_or(smallest)
}

/// One compiled form of a tiled kernel: its tile shape, and whether A and B are read as vec4
/// along k (every row start and the depth a multiple of 4) or one f32 at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    pub shape: TileShape,
    pub vec4: bool,
}

impl Variant {
    /// Every variant the kernels can compile (each shape [`choose_tile`] returns, both loads).
    pub fn all() -> impl Iterator<Item = Variant> {
        TileShape::ALL.into_iter().flat_map(|shape| {
            [false, true]
                .into_iter()
                .map(move |vec4| Variant { shape, vec4 })
        })
    }
}

/// The tile core's WGSL (not a shader on its own).
pub const CORE_SOURCE: WgslFile = wgsl!("tile_core.wgsl");

/// The shader for `variant`: constants from the shape, the core (loads of the chosen element
/// type, the unrolled staging, steps and store), then `kernel`.
pub fn compose(kernel: &str, variant: Variant) -> String {
    let Variant { shape, vec4 } = variant;
    assert!(
        shape.block % 4 == 0 && shape.tile_k % 4 == 0 && shape.side > 0,
        "{shape:?}: BLOCK and TILE_K must be multiples of 4"
    );
    let mut out = String::new();
    let _ = writeln!(out, "// Composed by pe_lab_gpu::tile from {shape:?}.");
    let _ = writeln!(out, "const SIDE: u32 = {}u;", shape.side);
    let _ = writeln!(out, "const BLOCK: u32 = {}u;", shape.block);
    let _ = writeln!(out, "const TILE: u32 = {}u;", shape.tile());
    let _ = writeln!(out, "const TILE4: u32 = {}u;", shape.tile() / 4);
    let _ = writeln!(out, "const TILE_K: u32 = {}u;", shape.tile_k);
    let _ = writeln!(out, "const INVOCATIONS: u32 = {}u;", shape.invocations());
    let _ = writeln!(out, "const STAGE_BLOCKS: u32 = {}u;", shape.stage_blocks());
    let (lanes, elem) = if vec4 { (4, "vec4<f32>") } else { (1, "f32") };
    let _ = writeln!(out, "const LANES: u32 = {lanes}u;");
    let _ = writeln!(out, "alias Elem = {elem};\n");
    let keep = if vec4 { "vec4" } else { "scalar" };
    let mut skipping = false;
    for line in CORE_SOURCE.text.lines() {
        let marker = line.trim();
        let indent = &line[..line.len() - line.trim_start().len()];
        if let Some(section) = marker.strip_prefix("// @if ") {
            skipping = section != keep;
        } else if marker == "// @end" {
            skipping = false;
        } else if skipping {
            continue;
        } else if let Some(what) = marker.strip_prefix("// @") {
            match what {
                "accumulators" => accumulators(&mut out, indent, shape),
                "stage_first" => staging(&mut out, indent, shape, "var ", "0u"),
                "stage_next" => staging(&mut out, indent, shape, "", "k0 + TILE_K"),
                "stage_store" => {
                    for s in 0..shape.stage_slots() {
                        let _ = writeln!(
                            out,
                            "{indent}stage_store(lane + {s}u * INVOCATIONS, staged{s});"
                        );
                    }
                }
                "accumulate" => accumulate(&mut out, indent, shape),
                "store" => store(&mut out, indent, shape),
                other => panic!("tile_core.wgsl: unknown marker @{other}"),
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    out.push_str(kernel);
    out
}

/// "x", "y", "z" or "w": component `t % 4` of a vec4.
fn component(t: u32) -> char {
    ['x', 'y', 'z', 'w'][(t % 4) as usize]
}

/// acc{4q + u}_{c}: row 4·(local.y + SIDE·q) + u, columns 4·(local.x + SIDE·c) + 0..4 of the tile.
fn accumulators(out: &mut String, indent: &str, shape: TileShape) {
    for a in 0..shape.block {
        for c in 0..shape.block / 4 {
            let _ = writeln!(out, "{indent}var acc{a}_{c} = vec4<f32>();");
        }
    }
}

/// staged{s} = the blocks this invocation stages from column `k0` on (`declare`: "var " or "").
fn staging(out: &mut String, indent: &str, shape: TileShape, declare: &str, k0: &str) {
    for s in 0..shape.stage_slots() {
        let _ = writeln!(
            out,
            "{indent}{declare}staged{s} = stage_load(lane + {s}u * INVOCATIONS, slice, i0, j0, \
             rows_a, rows_b, {k0}, depth);"
        );
    }
}

/// Every step k of the staged strips, unrolled: the invocation's rows and columns as vec4s, each
/// row value times each column vec4.
fn accumulate(out: &mut String, indent: &str, shape: TileShape) {
    let groups = shape.block / 4;
    for k in 0..shape.tile_k {
        let _ = writeln!(out, "{indent}{{");
        for c in 0..groups {
            let _ = writeln!(
                out,
                "{indent}    let b{c} = strip_b[{k}u][local.x + {c}u * SIDE];"
            );
        }
        for q in 0..groups {
            let _ = writeln!(
                out,
                "{indent}    let a{q} = strip_a[{k}u][local.y + {q}u * SIDE];"
            );
            for u in 0..4 {
                let a = 4 * q + u;
                for c in 0..groups {
                    let _ = writeln!(
                        out,
                        "{indent}    acc{a}_{c} = acc{a}_{c} + a{q}.{} * b{c};",
                        component(u)
                    );
                }
            }
        }
        let _ = writeln!(out, "{indent}}}");
    }
}

/// Every entry of the block inside A's rows and B's rows, to the kernel's `store`.
fn store(out: &mut String, indent: &str, shape: TileShape) {
    let groups = shape.block / 4;
    for c in 0..groups {
        for t in 0..4 {
            let _ = writeln!(
                out,
                "{indent}let col{}_{t} = j0 + 4u * (local.x + {c}u * SIDE) + {t}u;",
                c
            );
        }
    }
    for q in 0..groups {
        for u in 0..4 {
            let a = 4 * q + u;
            let _ = writeln!(
                out,
                "{indent}let row{a} = i0 + 4u * (local.y + {q}u * SIDE) + {u}u;"
            );
            let _ = writeln!(out, "{indent}if (row{a} < rows_a) {{");
            for c in 0..groups {
                for t in 0..4 {
                    let _ = writeln!(
                        out,
                        "{indent}    if (col{c}_{t} < rows_b) {{ store(slice, row{a}, col{c}_{t}, acc{a}_{c}.{}); }}",
                        component(t)
                    );
                }
            }
            let _ = writeln!(out, "{indent}}}");
        }
    }
}

/// The pipelines of one tiled kernel (entry points `entry_points` of its composed shader), one set
/// per [`Variant`], compiled when first asked for: a kernel usually runs one or two variants, and
/// each compilation costs time at the page's start.
pub(crate) struct TiledPipelines<const N: usize> {
    label: &'static str,
    kernel: WgslSource,
    entry_points: [&'static str; N],
    layout: wgpu::PipelineLayout,
    compiled: Vec<(Variant, [wgpu::ComputePipeline; N])>,
}

impl<const N: usize> TiledPipelines<N> {
    pub fn new(
        label: &'static str,
        kernel: WgslSource,
        entry_points: [&'static str; N],
        layout: wgpu::PipelineLayout,
    ) -> Self {
        Self {
            label,
            kernel,
            entry_points,
            layout,
            compiled: Vec::new(),
        }
    }

    /// Compiles `variant` unless it already is.
    pub fn ensure(&mut self, device: &wgpu::Device, variant: Variant) {
        if self.get(variant).is_none() {
            let source = Cow::Owned(compose(&self.kernel.text(), variant));
            let pipelines =
                pipelines_from_source(device, self.label, &self.layout, source, self.entry_points);
            self.compiled.push((variant, pipelines));
        }
    }

    /// The layout every variant's pipelines are built on.
    pub fn layout(&self) -> &wgpu::PipelineLayout {
        &self.layout
    }

    /// The pipelines of `variant`, once [`TiledPipelines::ensure`] has compiled them.
    pub fn get(&self, variant: Variant) -> Option<&[wgpu::ComputePipeline; N]> {
        self.compiled
            .iter()
            .find(|(v, _)| *v == variant)
            .map(|(_, pipelines)| pipelines)
    }
}
