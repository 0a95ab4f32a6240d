//! Drawing helpers shared by the panels: heatmap frames and cell images, the column curves
//! (plotters), the unit-circle projection. They draw what they are given; the numbers come from
//! `math` and the words from `model::present`.

pub mod chart;
pub mod curves;
pub mod heatmap;
pub mod projection;

/// `text` cut to fit `width` pixels at the context's font, ending in "…" when cut (a title on a
/// phone keeps its start readable rather than running off the canvas).
pub fn ellipsize(context: &web_sys::CanvasRenderingContext2d, text: &str, width: f64) -> String {
    let fits = |t: &str| context.measure_text(t).map_or(true, |m| m.width() <= width);
    if fits(text) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    // The longest prefix that fits with the ellipsis (binary search over the prefix length).
    let (mut low, mut high) = (0usize, chars.len());
    while low < high {
        let mid = (low + high).div_ceil(2);
        let candidate: String = chars[..mid].iter().collect::<String>() + "…";
        if fits(&candidate) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    chars[..low]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
        + "…"
}
