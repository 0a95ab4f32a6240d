//! Prints the CSV export of the encoding matrix P, computed natively by `pe_lab::math`:
//! `cargo run --example export_csv -- <d> <n> <base>`. The end-to-end tests compare the page's
//! CSV download with this output byte for byte.

use pe_lab::math::encoding::try_sinusoidal;
use pe_lab::model::export::encoding_csv;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |k: usize, default: f64| {
        args.get(k)
            .and_then(|a| a.parse::<f64>().ok())
            .unwrap_or(default)
    };
    let (d, n, base) = (
        parse(0, 32.0) as usize,
        parse(1, 60.0) as usize,
        parse(2, 10000.0),
    );
    match try_sinusoidal(n, d, base) {
        Ok(p) => print!("{}", encoding_csv(p.view(), base)),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    }
}
