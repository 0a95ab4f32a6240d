"""NumPy reference for benches/bench.rs, float32, one thread.

1. The textbook float32 sinusoidal encoding (d2l.ai): times P for (n, d) = (4096, 1024), base
   10000, computed the way the chapter does it in float32, and measures its largest abs error
   against a float64 reference.
2. The kernels that bench.rs compares with NumPy, at (n, d) = (1024, 512) and (2048, 512), on the
   sinusoidal P (the float64 reference rounded to float32, which is what the Rust `sinusoidal`
   gives to within 1e-7):
   - Gram G = P @ P.T (NumPy sees the transposed operand and calls BLAS syrk, which computes one
     triangle, like the Rust `gram`);
   - attention weights softmax(Q @ K.T / sqrt(d)), the row-wise stable softmax, with Q = K = P
     (self-attention: again syrk) and with Q = P, K = P with its rows reversed (a general GEMM).

Medians and minima of RUNS timed calls after WARMUPS untimed ones, in ms. Prints one JSON object.

    python3 benches/numpy_reference.py [n d]   # both parts; n d sizes the encoding
    python3 benches/numpy_reference.py --kernels   # part 2 only (what `cargo bench` runs)
"""

import os

# One thread, set before NumPy is imported (BLAS libraries read these when they load): the Rust
# kernels are single-threaded, and a comparison with a multi-threaded BLAS would say nothing.
for _var in (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
):
    os.environ[_var] = "1"

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

BASE = 10000.0
WARMUPS = 3
RUNS = 21
KERNEL_SIZES = ((1024, 512), (2048, 512))


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


def attention_weights(q, k):
    """softmax(Q·Kᵀ/√d) per row in float32, the max subtracted before exp, all in place."""
    s = q @ k.T
    s *= np.float32(1.0 / np.sqrt(q.shape[1]))
    s -= s.max(axis=1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=1, keepdims=True)
    return s


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


def kernels():
    result = {}
    for n, d in KERNEL_SIZES:
        p = reference_float64(n, d).astype(np.float32)
        reversed_p = np.ascontiguousarray(p[::-1])
        assert attention_weights(p, p).dtype == np.float32
        result[f"gram_{n}x{d}_ms"] = time_ms(lambda: p @ p.T)
        result[f"attention_weights_{n}x{d}_ms"] = time_ms(lambda: attention_weights(p, p))
        result[f"attention_weights_qk_{n}x{d}_ms"] = time_ms(
            lambda: attention_weights(p, reversed_p)
        )
    return result


def main():
    result = {"numpy_version": np.__version__, "threads": 1}
    if sys.argv[1:] == ["--kernels"]:
        result.update(kernels())
        print(json.dumps(result))
        return
    n, d = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (4096, 1024)
    p32 = textbook_float32(n, d)
    err = float(np.max(np.abs(p32.astype(np.float64) - reference_float64(n, d))))
    result[f"numpy_float32_textbook_{n}x{d}_ms"] = time_ms(lambda: textbook_float32(n, d))
    result["numpy_float32_textbook_max_abs_error_vs_f64"] = err
    result.update(kernels())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
