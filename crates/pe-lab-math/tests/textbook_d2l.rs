//! The page's `textbook=1` P against d2l's PyTorch `PositionalEncoding` lines replayed in NumPy
//! float32: a fixed sample of cells (tests/data/textbook_d2l.csv, made by
//! tests/data/textbook_d2l.py) for d ∈ {32, 128, 512, 1024} at positions up to 2047.

use pe_lab_math::encoding::{textbook_sinusoidal, textbook_sinusoidal_from};

/// The most a cell may differ from NumPy's: a few f32 ulps (NumPy's float32 sin and cos are within
/// about 1 ulp of the correctly rounded value, which is what ours are).
const TOLERANCE: f32 = 2e-7;

/// The fixture's positions are 0…N−1.
const N: usize = 2048;
const DIMS: [usize; 4] = [32, 128, 512, 1024];
const ROWS: [usize; 11] = [0, 1, 2, 3, 59, 60, 511, 999, 1000, 1500, 2047];
const BASE: f64 = 10000.0;

struct Cell {
    d: usize,
    i: usize,
    column: usize,
    value: f32,
}

fn fixture() -> Vec<Cell> {
    let text = include_str!("data/textbook_d2l.csv");
    let mut lines = text.lines().filter(|line| !line.starts_with('#'));
    assert_eq!(lines.next(), Some("d,i,column,bits,value"));
    let cells: Vec<Cell> = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 5, "{line}");
            let value = f32::from_bits(u32::from_str_radix(fields[3], 16).expect(line));
            // The decimal is the same f32 (Python's repr of the float64 it widens to).
            assert_eq!(
                fields[4].parse::<f64>().expect(line),
                value as f64,
                "{line}"
            );
            Cell {
                d: fields[0].parse().expect(line),
                i: fields[1].parse().expect(line),
                column: fields[2].parse().expect(line),
                value,
            }
        })
        .collect();
    // Every d and row is there, with at least 16 columns each, first two and last two included.
    for d in DIMS {
        for i in ROWS {
            let columns: Vec<usize> = cells
                .iter()
                .filter(|cell| cell.d == d && cell.i == i)
                .map(|cell| cell.column)
                .collect();
            assert!(columns.len() >= 16, "d={d} row {i}: {columns:?}");
            for c in [0, 1, d - 2, d - 1] {
                assert!(columns.contains(&c), "d={d} row {i}: no column {c}");
            }
        }
    }
    assert!(cells
        .iter()
        .all(|cell| DIMS.contains(&cell.d) && cell.i < N));
    cells
}

/// The largest |value − NumPy| over the fixture's cells of dimension `d` (all rows, or one).
fn max_difference(
    cells: &[Cell],
    d: usize,
    row: Option<usize>,
    value: impl Fn(&Cell) -> f32,
) -> f32 {
    cells
        .iter()
        .filter(|cell| cell.d == d && row.map_or(true, |i| cell.i == i))
        .map(|cell| (value(cell) - cell.value).abs())
        .fold(0.0, f32::max)
}

#[test]
fn textbook_p_matches_d2l_pytorch_in_numpy_float32() {
    let cells = fixture();
    for d in DIMS {
        let p = textbook_sinusoidal(N, d, BASE);
        let worst = max_difference(&cells, d, None, |cell| p[[cell.i, cell.column]]);
        println!("d = {d}, n = {N}: max |P − NumPy float32| over the sample = {worst:e}");
        assert!(worst <= TOLERANCE, "d = {d}: {worst:e}");
        // A row does not depend on n nor on where the rows start.
        let short = textbook_sinusoidal(1001, d, BASE);
        assert_eq!(short, p.slice(ndarray::s![..1001, ..]));
        let from = textbook_sinusoidal_from(1000, 48, d, BASE);
        assert_eq!(from, p.slice(ndarray::s![1000..1048, ..]));
    }
}

/// The textbook P as the code before this test computed it in the page: std's f32 `powf`, `sin`
/// and `cos`, which in wasm32 are the `libm` crate's `powf`, `sinf` and `cosf`. (Natively std
/// calls the C library's, which happened to agree with NumPy's here.)
fn old_page_cell(i: usize, column: usize, d: usize) -> f32 {
    let divisor = libm::powf(BASE as f32, (2 * (column / 2)) as f32 / d as f32);
    let angle = i as f32 / divisor;
    if column % 2 == 0 {
        libm::sinf(angle)
    } else {
        libm::cosf(angle)
    }
}

#[test]
fn the_old_float32_powf_would_fail() {
    let cells = fixture();
    for d in DIMS {
        let p = textbook_sinusoidal(N, d, BASE);
        let old = max_difference(&cells, d, None, |cell| {
            old_page_cell(cell.i, cell.column, d)
        });
        let old_1000 = max_difference(&cells, d, Some(1000), |cell| {
            old_page_cell(cell.i, cell.column, d)
        });
        let new_1000 = max_difference(&cells, d, Some(1000), |cell| p[[cell.i, cell.column]]);
        println!(
            "d = {d}: old page code max |P − NumPy| = {old:e} ({old_1000:e} at position 1000, \
             now {new_1000:e})"
        );
        assert!(new_1000 <= TOLERANCE);
        if d >= 128 {
            // libm's powf is one ulp off at the exponent 1/32 (columns d/32, d/32 + 1).
            assert!(old_1000 > 1e-5, "d = {d}: {old_1000:e}");
        }
    }
    // Independently of any powf: one divisor one ulp off moves position 1000 by ~1e-4.
    let d = 128;
    let p = textbook_sinusoidal(N, d, BASE);
    let off_by_one_ulp = |cell: &Cell| {
        let j = cell.column / 2;
        let divisor = libm::pow(BASE, ((2 * j) as f32 / d as f32) as f64) as f32;
        let divisor = f32::from_bits(divisor.to_bits() + 1);
        let angle = (cell.i as f32 / divisor) as f64;
        let value = if cell.column % 2 == 0 {
            libm::sin(angle)
        } else {
            libm::cos(angle)
        };
        value as f32
    };
    let perturbed = max_difference(&cells, d, Some(1000), off_by_one_ulp);
    println!("d = {d}: divisors one ulp up, position 1000: {perturbed:e}");
    assert!(perturbed > 1e-5, "{perturbed:e}");
    assert!(max_difference(&cells, d, Some(1000), |cell| p[[cell.i, cell.column]]) <= TOLERANCE);
}
