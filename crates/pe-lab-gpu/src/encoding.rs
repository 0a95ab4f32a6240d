//! The sinusoidal encoding P (n × d, row-major f32) computed on the GPU (`encoding.wgsl`), accurate
//! to 2e-6 against float64 for n ≤ [`MAX_EXACT_POSITIONS`]. CPU twin:
//! [`pe_lab_math::encoding::sinusoidal`].
//!
//! # Why not WGSL's `sin`/`cos`
//!
//! WGSL only promises 2⁻¹¹ absolute error for `sin`/`cos` on [−π, π] (and nothing outside), and the
//! angle i·ω_j itself is off by up to ulp(8192)/2 ≈ 5e-4 rad when formed in f32. So the shader
//! works in **turns** (angle / 2π), forms the product i·f_j with exact f32 arithmetic, and
//! evaluates its own polynomials.
//!
//! # The method and its error budget
//!
//! On the CPU (f64): f_j = ω_j / 2π is split as a_j + b_j + c_j, where a_j and b_j carry 11
//! significant bits each (round-to-nearest, [`SPLIT_BITS`]) and c_j = f32(f_j − a_j − b_j), so
//! |c_j| ≤ 2⁻²²·f_j. In the shader, for a position i < 2¹³ = 8192:
//!
//! 1. i·a_j and i·b_j are **exact** in f32 (13 + 11 = 24 significant bits), and so are x − round(x)
//!    of each (the fractional bits of an exact number, in [−½, ½]) and, after taking out whole
//!    quarter turns q = round(4x), the remainders x − q/4 ∈ [−⅛, ⅛] (Sterbenz).
//! 2. The two remainders are added: the one rounding of the turn, at magnitude ≤ ¼, so ≤ 2⁻²⁷ turn
//!    (4.7e-8 rad). Adding the centred parts first would round at magnitude 1 (4× worse); an
//!    error-free TwoSum would avoid it but drivers that reassociate inexact float ops (Mesa's NIR
//!    does) simplify it away, whereas every step here is exact or a single honest rounding.
//! 3. One more quarter-turn reduction (exact) brings the sum back to [−⅛, ⅛]; then i·c_j is added:
//!    |i·c_j| < 2⁻⁹·f_j ≤ 3e-4 turn, its product rounding ~2⁻³³ turn, the sum's ≤ 2⁻²⁸ turn (2.3e-8
//!    rad). The representation error |f_j − (a+b+c)|·i ≤ 2⁻⁴⁶·8192·f_j is negligible.
//! 4. x = 2π·u ∈ [−π/4, π/4] (plus |i·c_j|): ≤ 5e-8 rad from the product rounding and the f32 value
//!    of 2π.
//! 5. sin x and cos x by Taylor polynomials of degree 9 and 10 in Horner form: truncation ≤
//!    (π/4)¹¹/11! ≈ 1.8e-9 and (π/4)¹²/12! ≈ 1.1e-10; evaluation ≲ 1e-7. Then the exact quadrant
//!    rotation (sign flips and swaps by q mod 4) and the f32 result (≤ 3e-8).
//!
//! Worst case ≈ 4.7e-8 + 2.3e-8 + 5e-8 + 1e-7 + 3e-8 ≈ 2.5e-7 < 2e-6. Measured on lavapipe at n =
//! 8192, d = 2048, base 10⁴: 1.4e-7 (every entry; the CPU's `sinusoidal` is below 1e-7). Should a
//! compiler reassociate the reduction, the error falls back to the ≤ 2⁻²⁵-turn rounding of a
//! magnitude-1 sum (measured 3.3e-7), still within 2e-6. For i ≥ 8192 step 1 is no longer exact and
//! the error grows with i, which is why [`EncodingKernel`]'s `prepare` refuses n > [`MAX_EXACT_POSITIONS`]
//! with [`GpuError::TooLarge`] instead of degrading silently. Rows may start at a position
//! `first` > 0 (its [`Kernel::Args`]; 1 for the Julia edition's 1-based rows): the bound is
//! on the positions, so first + n ≤ [`MAX_EXACT_POSITIONS`].

use crate::kernel::{Dispatches, Kernel};
use crate::wgsl::{wgsl, WgslSource, SIN_COS};
use bytemuck::{Pod, Zeroable};

use crate::plain_kernel::{PlainKernel, PlainKernelSpec};

use super::buffers::GrowableBuffer;
use super::{check_limit, check_storage_size, check_workgroups, GpuError};
use pe_lab_math::encoding::{frequency, frequency_count};
use pe_lab_math::validate;

pub(crate) const SOURCE: WgslSource = WgslSource(&[SIN_COS, wgsl!("encoding.wgsl")]);

/// Positions below this are encoded with exact turn products (see the module docs); equal to
/// `MAX_EXACT_POSITIONS` in encoding.wgsl (checked by shaders/layout_checks.rs). With [`SPLIT_BITS`] it must satisfy
/// log2(MAX_EXACT_POSITIONS) + SPLIT_BITS ≤ 24.
pub const MAX_EXACT_POSITIONS: usize = 8192;

/// Significant bits of the parts a_j and b_j of each frequency in turns: 24 − log2(8192) = 11.
pub const SPLIT_BITS: i32 = 11;

/// The largest n the kernel accepts: the exactness bound above. d is bounded by the device's
/// storage binding size alone (P at n = 8192, d = 2048 is 64 MiB of the default 128 MiB; lavapipe
/// computes it in 35–60 ms, 4096 × 1024 in 9–16 ms).
pub const ENCODING_MAX_POSITIONS: usize = MAX_EXACT_POSITIONS;

/// Frequency pairs per workgroup along x (rows are along y). `WORKGROUP_PAIRS` in
/// encoding.wgsl (checked by shaders/layout_checks.rs).
pub const WORKGROUP_PAIRS: u32 = 64;

/// Mirrors `Params` in encoding.wgsl (its layout, 16 bytes, checked by shaders/layout_checks.rs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
pub(crate) struct EncodingParams {
    pub(crate) n: u32,
    pub(crate) d: u32,
    pub(crate) pairs: u32,
    /// The position of row 0 (1: the Julia edition's 1-based rows).
    pub(crate) first: u32,
}

/// `x` rounded to nearest with `bits` significant bits (0 stays 0; f64 subnormals, far below
/// anything an f32 angle can resolve, become 0).
fn round_to_bits(x: f64, bits: i32) -> f64 {
    let biased = ((x.to_bits() >> 52) & 0x7ff) as i32;
    if x == 0.0 || biased == 0 || !x.is_finite() {
        return 0.0;
    }
    // 2^exponent ≤ |x| < 2^(exponent+1); the quantum keeps `bits` bits from the leading one.
    let exponent = biased - 1023;
    let quantum = 2f64.powi(exponent - (bits - 1));
    (x / quantum).round() * quantum
}

/// The frequency of pair j in turns per position, f_j = ω_j/2π, split into `[a, b, c, 0]`:
/// a and b with [`SPLIT_BITS`] significant bits (so i·a and i·b are exact in f32 for
/// i < [`MAX_EXACT_POSITIONS`]) and c the f32 remainder. One vec4 per pair, as uploaded.
pub fn turn_parts(d: usize, base: f64) -> Vec<[f32; 4]> {
    (0..frequency_count(d))
        .map(|j| {
            let turns = frequency(j, d, base) / std::f64::consts::TAU;
            let a = round_to_bits(turns, SPLIT_BITS);
            let b = round_to_bits(turns - a, SPLIT_BITS);
            let c = turns - a - b;
            [a as f32, b as f32, c as f32, 0.0]
        })
        .collect()
}

/// Owns the pipeline, the uniform buffer, the frequency table and the output P.
pub struct EncodingKernel {
    plain: PlainKernel,
    turns: GrowableBuffer,
    output: GrowableBuffer,
    shape: Option<(usize, usize)>,
}

impl EncodingKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            plain: PlainKernel::new(
                device,
                PlainKernelSpec {
                    label: "encoding",
                    file: "encoding.wgsl",
                    source: SOURCE,
                    read_only: 1,
                    writable: 1,
                    params_bytes: std::mem::size_of::<EncodingParams>() as u64,
                },
            ),
            turns: GrowableBuffer::new(
                "encoding turns",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            ),
            // STORAGE: written here, then bound read-only by the other kernels and by the heatmap's
            // render pass; COPY_SRC: read back by tests and, at small sizes, by the page.
            output: GrowableBuffer::new(
                "encoding P",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            shape: None,
        }
    }

    /// (n, d) of the last successful `prepare`.
    pub fn shape(&self) -> Option<(usize, usize)> {
        self.shape
    }
}

/// P for (n, d, base) into [`Kernel::buffer`]: n·d f32 values, row-major.
impl Kernel for EncodingKernel {
    const LABEL: &'static str = "encoding";

    /// (first, n, d, base): rows for the positions `first … first + n − 1` (CPU twin:
    /// [`pe_lab_math::encoding::sinusoidal_from`]; 0 for P as the chapter builds it). Every
    /// position must stay below [`MAX_EXACT_POSITIONS`]: first + n ≤ 8192.
    type Args<'a> = (usize, usize, usize, f64);

    /// Checks the arguments, grows the buffers if needed, uploads the uniforms and the frequency
    /// table, and binds.
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (first, n, d, base): Self::Args<'_>,
    ) -> Result<(), GpuError> {
        validate(n, d, base)?;
        let what = if first == 0 {
            "n (positions encoded exactly)"
        } else {
            "first position + n (positions encoded exactly)"
        };
        check_limit(what, n.saturating_add(first), ENCODING_MAX_POSITIONS)?;
        let limits = device.limits();
        let bytes = (n as u64).saturating_mul(d as u64).saturating_mul(4);
        check_storage_size(&limits, "P (n·d·4 bytes)", bytes)?;
        let pairs = frequency_count(d);
        let turn_bytes = (pairs as u64) * 16;
        check_storage_size(&limits, "frequency table (bytes)", turn_bytes)?;
        let groups_x = check_workgroups(
            &limits,
            "encoding workgroups along pairs",
            (pairs as u64).div_ceil(u64::from(WORKGROUP_PAIRS)),
        )?;
        let groups_y = check_workgroups(&limits, "encoding workgroups along rows", n as u64)?;
        let cap = limits.max_storage_buffer_binding_size;
        let turns = self.turns.ensure(device, turn_bytes, cap);
        let output = self.output.ensure(device, bytes, cap);
        let params = EncodingParams {
            n: n as u32,
            d: d as u32,
            pairs: pairs as u32,
            first: first as u32,
        };
        self.plain.write_params(queue, &params);
        queue.write_buffer(turns, 0, bytemuck::cast_slice(&turn_parts(d, base)));
        self.plain
            .bind(device, &[turns, output], [groups_x, groups_y, 1]);
        self.shape = Some((n, d));
        Ok(())
    }

    fn dispatches(&self) -> Option<Dispatches<'_>> {
        self.plain.dispatches()
    }

    fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.output.get()
    }
}
