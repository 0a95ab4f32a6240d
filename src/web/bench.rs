//! `peLab.bench()`: P, the Gram matrix P·Pᵀ and the attention weights softmax(P·Pᵀ/√d) timed in
//! this page's WebAssembly (the CPU path's own functions) and in plain JavaScript doing the same
//! work in the same page, as JSON. A benchmark: it prints figures, it asserts nothing.

use js_sys::{Float32Array, Function, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::JsValue;

use super::dom::now_ms;
use super::error::WebError;
use crate::math::attention::weights;
use crate::math::encoding::try_sinusoidal;
use crate::math::gram::gram;
use crate::model::bench::{median, BenchPlan};

/// The plain-JavaScript reference: the textbook loops, on Float32Arrays, with no library. Kept as
/// source here (one function, built with `new Function`) so that the page ships no extra file.
const JS_REFERENCE: &str = r#"
const encoding = (n, d, base) => {
  const p = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j += 2) {
      const angle = i / Math.pow(base, j / d);
      p[i * d + j] = Math.sin(angle);
      if (j + 1 < d) p[i * d + j + 1] = Math.cos(angle);
    }
  }
  return p;
};
const gram = (p, n, d) => {
  const g = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += p[i * d + k] * p[j * d + k];
      g[i * n + j] = s;
    }
  }
  return g;
};
const attention = (p, n, d) => {
  const w = gram(p, n, d);
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) { w[i * n + j] *= scale; if (w[i * n + j] > max) max = w[i * n + j]; }
    let sum = 0;
    for (let j = 0; j < n; j++) { const e = Math.exp(w[i * n + j] - max); w[i * n + j] = e; sum += e; }
    for (let j = 0; j < n; j++) w[i * n + j] /= sum;
  }
  return w;
};
const time = (f, runs) => {
  f();
  const times = [];
  let result;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    result = f();
    times.push(performance.now() - t0);
  }
  return { times, result };
};
return {
  encoding: (n, d, base, runs) => time(() => encoding(n, d, base), runs),
  gram: (p, n, d, runs) => time(() => gram(p, n, d), runs),
  attention: (p, n, d, runs) => time(() => attention(p, n, d), runs),
};
"#;

/// One line of the result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct BenchLine {
    work: &'static str,
    n: usize,
    d: usize,
    wasm_ms: f64,
    js_ms: f64,
    /// js_ms / wasm_ms.
    speedup: f64,
    /// Largest |wasm − js| over the results: both did the same work.
    max_difference: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BenchResult {
    runs: usize,
    statistic: &'static str,
    user_agent: String,
    lines: Vec<BenchLine>,
}

/// Median milliseconds of `runs` calls of `f` after one warm-up, and the last result.
fn time_wasm<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut result = f();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = now_ms();
        result = f();
        times.push(now_ms() - started);
    }
    (median(&times), result)
}

/// The JavaScript reference's median and result for one piece of work.
fn time_js(reference: &Object, name: &str, args: &[JsValue]) -> Result<(f64, Vec<f32>), WebError> {
    let function: Function = Reflect::get(reference, &name.into())?.into();
    let array = js_sys::Array::new();
    for arg in args {
        array.push(arg);
    }
    let outcome = function.apply(&JsValue::NULL, &array)?;
    let times: Vec<f64> = js_sys::Array::from(&Reflect::get(&outcome, &"times".into())?)
        .iter()
        .filter_map(|t| t.as_f64())
        .collect();
    let result = Float32Array::from(Reflect::get(&outcome, &"result".into())?).to_vec();
    Ok((median(&times), result))
}

fn max_difference(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from((x - y).abs()))
        .fold(0.0, f64::max)
}

fn line(
    work: &'static str,
    (n, d): (usize, usize),
    wasm_ms: f64,
    js_ms: f64,
    diff: f64,
) -> BenchLine {
    BenchLine {
        work,
        n,
        d,
        wasm_ms,
        js_ms,
        speedup: if wasm_ms > 0.0 {
            js_ms / wasm_ms
        } else {
            f64::NAN
        },
        max_difference: diff,
    }
}

/// Runs the benchmark (it blocks the page while it runs: seconds at the default sizes).
pub fn run(plan: BenchPlan) -> Result<JsValue, WebError> {
    const BASE: f64 = 10000.0;
    let reference: Object = Function::new_no_args(JS_REFERENCE)
        .call0(&JsValue::NULL)?
        .into();
    let runs = plan.runs;
    let mut lines = Vec::new();

    let (n, d) = plan.encoding;
    let (wasm_ms, p) = time_wasm(runs, || try_sinusoidal(n, d, BASE));
    let p = p?;
    let (js_ms, js_p) = time_js(
        &reference,
        "encoding",
        &[
            (n as f64).into(),
            (d as f64).into(),
            BASE.into(),
            (runs as f64).into(),
        ],
    )?;
    let diff = max_difference(p.as_slice().unwrap_or(&[]), &js_p);
    lines.push(line(
        "P (sinusoidal encoding)",
        (n, d),
        wasm_ms,
        js_ms,
        diff,
    ));

    let (n, d) = plan.products;
    let p = try_sinusoidal(n, d, BASE)?;
    let flat = Float32Array::from(p.as_slice().unwrap_or(&[]));
    let args = [
        flat.into(),
        (n as f64).into(),
        (d as f64).into(),
        (runs as f64).into(),
    ];
    let (wasm_ms, g) = time_wasm(runs, || gram(p.view()));
    let (js_ms, js_g) = time_js(&reference, "gram", &args)?;
    let diff = max_difference(g.as_slice().unwrap_or(&[]), &js_g);
    lines.push(line("Gram P·Pᵀ", (n, d), wasm_ms, js_ms, diff));

    let (wasm_ms, w) = time_wasm(runs, || weights(p.view(), p.view(), None));
    let (js_ms, js_w) = time_js(&reference, "attention", &args)?;
    let diff = max_difference(w.as_slice().unwrap_or(&[]), &js_w);
    lines.push(line(
        "attention softmax(P·Pᵀ/√d)",
        (n, d),
        wasm_ms,
        js_ms,
        diff,
    ));

    let user_agent = super::dom::window()?
        .navigator()
        .user_agent()
        .unwrap_or_default();
    let result = BenchResult {
        runs,
        statistic: "median of the timed runs, after one warm-up run",
        user_agent,
        lines,
    };
    serde_wasm_bindgen::to_value(&result).map_err(|e| WebError::Js(e.to_string()))
}
