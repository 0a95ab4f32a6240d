// Gathers up to MAX_COLUMNS chosen columns of P (n × d, row-major) into a small (count × n) buffer,
// row c = column columns[c] of P, so that the page reads back only the curves it draws, never P.
// Twin: math::encoding::gather_columns.

// COLUMNS_WORKGROUP in columns.rs (checked by shaders/layout_checks.rs).
const WORKGROUP: u32 = 64u;
// MAX_GATHER_COLUMNS in columns.rs (4 vec4 in the uniform buffer; checked there too).
const MAX_COLUMNS: u32 = 16u;

// Mirrors ColumnsParams in columns.rs (its layout checked by shaders/layout_checks.rs). Uniform arrays need a 16-byte stride, hence
// the column indices packed four to a vec4.
struct Params {
    n: u32,
    d: u32,
    count: u32,
    _pad: u32,
    columns: array<vec4<u32>, 4>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> p: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WORKGROUP)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    let c = id.y;
    if (i >= params.n || c >= params.count || c >= MAX_COLUMNS) {
        return;
    }
    let column = params.columns[c / 4u][c % 4u];
    out[c * params.n + i] = p[i * params.d + column];
}
