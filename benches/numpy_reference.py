"""NumPy reference for benches/bench.rs: the textbook float32 sinusoidal encoding (d2l.ai).

Times P for (n, d) = (4096, 1024), base 10000, computed the way the chapter does it in float32,
and measures its largest abs error against a float64 reference. Prints one JSON object.

    python3 benches/numpy_reference.py [n d]
"""

import json
import sys
import time

import numpy as np

BASE = 10000.0
WARMUPS = 3
RUNS = 21


def textbook_float32(n, d):
    p = np.zeros((n, d), dtype=np.float32)
    x = np.arange(n, dtype=np.float32).reshape(-1, 1) / np.power(
        np.float32(BASE), np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    )
    p[:, 0::2] = np.sin(x)
    p[:, 1::2] = np.cos(x)
    return p


def reference_float64(n, d):
    omega = BASE ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    x = np.arange(n, dtype=np.float64).reshape(-1, 1) * omega
    p = np.empty((n, d), dtype=np.float64)
    p[:, 0::2] = np.sin(x)
    p[:, 1::2] = np.cos(x)
    return p


def time_ms(f, runs=RUNS):
    for _ in range(WARMUPS):
        f()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        samples.append((time.perf_counter() - start) * 1e3)
    samples.sort()
    return {"median": round(samples[len(samples) // 2], 4), "min": round(samples[0], 4), "runs": runs}


def main():
    n, d = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (4096, 1024)
    p32 = textbook_float32(n, d)
    err = float(np.max(np.abs(p32.astype(np.float64) - reference_float64(n, d))))
    result = {
        "numpy_version": np.__version__,
        f"numpy_float32_textbook_{n}x{d}_ms": time_ms(lambda: textbook_float32(n, d)),
        "numpy_float32_textbook_max_abs_error_vs_f64": err,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
