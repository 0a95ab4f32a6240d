// The training worker's loader (a classic worker script): the worker crate's bindings, then its
// wasm. The page starts it with `new Worker('./train-worker.js')` when training is first asked for.
importScripts('./pe-lab-train-worker.js');
wasm_bindgen({ module_or_path: './pe-lab-train-worker_bg.wasm' });
