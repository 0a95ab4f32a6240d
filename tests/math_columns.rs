//! `pe_lab::math::encoding::gather_columns`, the CPU twin of the GPU column gather: the chosen
//! columns of P as rows, in the order asked for.
#![cfg(not(target_arch = "wasm32"))]

use ndarray::Array2;
use pe_lab::math::encoding::{gather_columns, sinusoidal, try_gather_columns};
use pe_lab::math::MathError;

#[test]
fn rows_are_the_chosen_columns_in_order() {
    let p = sinusoidal(50, 33, 250.0);
    let cols = [32, 0, 7, 7];
    let g = gather_columns(p.view(), &cols);
    assert_eq!(g.dim(), (4, 50));
    for (row, &c) in g.rows().into_iter().zip(&cols) {
        assert_eq!(row, p.column(c));
    }
    assert_eq!(try_gather_columns(p.view(), &cols), Ok(g));
    assert_eq!(gather_columns(p.view(), &[]).dim(), (0, 50));
}

#[test]
fn a_missing_column_is_nan_or_an_error_when_checked() {
    let p = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f32);
    let g = gather_columns(p.view(), &[1, 4]);
    assert_eq!(g.row(0).to_vec(), vec![1.0, 5.0, 9.0]);
    assert!(g.row(1).iter().all(|v| v.is_nan()));
    assert_eq!(
        try_gather_columns(p.view(), &[1, 4]),
        Err(MathError::TooLarge {
            what: "column index",
            requested: 4,
            limit: 3
        })
    );
}
