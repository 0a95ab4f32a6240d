"""PyTorch float32 reference on CUDA for the GPU kernels that benches/bench.rs times through wgpu.

The same kernels as the `"gpu"` section of the bench (benches/bench_gpu/mod.rs), at its sizes, on
the same inputs, each computing what its WGSL twin in src/gpu computes:

- `encoding_4096x1024_ms`: the sinusoidal encoding P (n × d, base 10000), p[i, 2j] = sin(i·ω_j),
  p[i, 2j + 1] = cos(i·ω_j), formed as encoding.wgsl forms it: the frequency in turns split on the
  host into a + b + c (a and b with 11 significant bits, so i·a and i·b are exact in f32), the
  exact centred parts and quarter-turn reductions, then sin/cos of the reduced angle (torch's
  library functions where the shader has its own polynomials). Eager PyTorch runs it as a chain
  of elementwise kernels where the shader is one. `encoding_textbook_…` (not in the bench's table)
  is the one-line float32 formula sin/cos(f32(i)·f32(ω_j)), for scale; it is far less accurate.
- `gram_{n}x{d}_ms`: G = P·Pᵀ (n × n) of the encoding at (n, d) (gram.rs).
- `attention_weights_{n}x{d}_ms`: softmax(P·Pᵀ·scale) per row, one head, no mask, Q = K = P,
  scale = f32(1/√d) (attention.rs with heads 1 and every key valid); the scale is applied in the
  GEMM (addmm's alpha), as the WGSL applies it when it stores a score.
- `alibi_weights_{n}x{d}_ms`: causal ALiBi weights of one head, W[i, j] = softmax over j ≤ i of
  scale·(q_i·k_j) + slope·(j − i), exactly 0 for j > i, slope 0.5, Q = K = P (alibi_scores.rs).
  The bias and the causal mask (−inf above the diagonal) are one n × n f32 matrix built before
  the timing, as PyTorch ALiBi code caches it; the WGSL forms the bias in the kernel and skips the
  tiles above the diagonal, where cuBLAS computes the whole product.
- `rope_scores_{n}x{d}_ms`: RoPE scores S = (R Q)·(R K)ᵀ·scale of one head, Q = K = P, base
  10000: row m rotated pairwise, interleaved pairs (2t, 2t + 1), by the f32 angle f32(m)·θ_t with
  θ_t = f32(base^(−2t/d)) from float64 (rope_scores.rs, rope_rotate.wgsl). The angles, their sin
  and cos and both rotations are inside the timed call, as in the WGSL's rotation pass (once for
  Q and K together, where the shader evaluates them per matrix).

Float32 throughout with TF32 off, so that cuBLAS does full float32 products like the WGSL.

Timing (CUDA events): WARMUPS untimed calls, more until WARM_UP_SECONDS have passed (the GPU's
clock rises only under sustained work; the bench warms its kernels as long), then RUNS calls each between its own pair of events
and synchronized: `median` and `min` in ms (what the bench's table compares with its medians,
which are timestamp queries around one compute pass). Then `back_to_back_mean`: BACK_TO_BACK calls
queued between one pair of events, the elapsed time divided by BACK_TO_BACK (launch gaps between
calls hidden behind the work). `max_abs_error_vs_f64` gives each output's largest absolute
difference from a float64 NumPy computation of the same formula on the same f32 inputs and f32
constants (scale, slope, θ_t, the f32 RoPE angles); for the encoding, from the exact values.

    python3 benches/gpu_reference.py                      # CUDA at the bench's sizes (what
                                                          # `cargo bench --bench bench` runs)
    python3 benches/gpu_reference.py --quick              # small sizes
    python3 benches/gpu_reference.py --device cpu --quick # the script's smoke test, on the CPU

Prints one JSON object on stdout, keys as in the bench's `"gpu"` section. Needs torch built with
CUDA (no script installs it); without torch or a CUDA device it prints {"unavailable": why} and
exits 0, so that the bench can say why its PyTorch column is empty.
"""

import argparse
import json
import math
import struct
import sys
import time

BASE = 10000.0
# The ALiBi slope the bench times (head 1 of 8); keep in sync with SLOPE in bench_gpu/mod.rs.
SLOPE = 0.5
WARMUPS = 5
# Untimed calls go on for at least this long before timing (after WARMUPS): a GPU raises its clock
# only under sustained work. Keep in sync with WARM_UP in benches/bench_gpu/mod.rs.
WARM_UP_SECONDS = 0.2
RUNS = 21
BACK_TO_BACK = 30
# Keep in sync with benches/bench_gpu/mod.rs: the encoding's size, then (n, d) of the tiled kernels.
ENCODING_SIZE = (4096, 1024)
KERNEL_SIZES = ((1024, 512), (2048, 512), (4096, 512))
QUICK_ENCODING_SIZE = (256, 64)
QUICK_KERNEL_SIZES = ((64, 32), (128, 32))
# Bits of a and b in the turn split; 24 − log2(8192), as SPLIT_BITS in src/gpu/encoding.rs.
SPLIT_BITS = 11


def f32(x):
    """x rounded to the nearest float32, as a Python float (Rust's `as f32`)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def round_to_bits(x, bits):
    """x rounded to `bits` significant bits, halves away from zero (f64::round in encoding.rs)."""
    if x == 0.0 or not math.isfinite(x):
        return 0.0
    # frexp: x = m·2^e with 0.5 ≤ |m| < 1, so the leading bit is 2^(e − 1).
    exponent = math.frexp(x)[1] - 1
    quantum = math.ldexp(1.0, exponent - (bits - 1))
    scaled = x / quantum
    return math.copysign(math.floor(abs(scaled) + 0.5), scaled) * quantum


def turn_parts(d, base):
    """[a, b, c] per frequency pair: f_j = ω_j/2π split as encoding.rs's turn_parts does."""
    parts = []
    for j in range((d + 1) // 2):
        turns = base ** (-(2 * j) / d) / (2.0 * math.pi)
        a = round_to_bits(turns, SPLIT_BITS)
        b = round_to_bits(turns - a, SPLIT_BITS)
        parts.append([f32(a), f32(b), f32(turns - a - b)])
    return parts


def theta_table(d, base):
    """θ_t = f32(base^(−2t/d)) for t < ⌊d/2⌋ (math::rope::theta_table_f32)."""
    return [f32(base ** (-(2 * t) / d)) for t in range(d // 2)]


def unavailable(why):
    print(json.dumps({"unavailable": why}))
    sys.exit(0)


def kernels(torch):
    """The PyTorch twins, closed over `torch` (imported late, so that its absence is reported)."""

    def encoding(positions, a, b, c, d):
        # positions: (n, 1) f32; a, b, c: (pairs,) f32. Every step as in encoding.wgsl.
        xa = positions * a
        xa = xa - torch.round(xa)
        xb = positions * b
        xb = xb - torch.round(xb)
        qa = torch.round(4.0 * xa)
        qb = torch.round(4.0 * xb)
        ub = (xa - 0.25 * qa) + (xb - 0.25 * qb)
        qc = torch.round(4.0 * ub)
        u = (ub - 0.25 * qc) + positions * c
        quadrant = torch.remainder(qa + qb + qc, 4.0)
        x = u * f32(2.0 * math.pi)
        s, co = torch.sin(x), torch.cos(x)
        # sin and cos of quadrant·π/2 + x.
        sine = torch.where(
            quadrant == 0, s, torch.where(quadrant == 1, co, torch.where(quadrant == 2, -s, -co))
        )
        cosine = torch.where(
            quadrant == 0, co, torch.where(quadrant == 1, -s, torch.where(quadrant == 2, -co, s))
        )
        return torch.stack((sine, cosine), dim=2).reshape(positions.shape[0], -1)[:, :d]

    def encoding_textbook(positions, omegas, d):
        x = positions * omegas
        return torch.stack((torch.sin(x), torch.cos(x)), dim=2).reshape(x.shape[0], -1)[:, :d]

    def gram(p, out):
        return torch.mm(p, p.T, out=out)

    def attention(q, k, scale, scores):
        torch.addmm(scores, q, k.T, beta=0.0, alpha=scale, out=scores)
        return torch.softmax(scores, dim=1)

    def alibi(q, k, scale, bias, scores):
        torch.addmm(bias, q, k.T, beta=1.0, alpha=scale, out=scores)
        return torch.softmax(scores, dim=1)

    def rotate(x, cos, sin):
        pairs = cos.shape[1]
        even, odd = x[:, 0 : 2 * pairs : 2], x[:, 1 : 2 * pairs : 2]
        out = torch.empty_like(x)
        out[:, 0 : 2 * pairs : 2] = even * cos - odd * sin
        out[:, 1 : 2 * pairs : 2] = even * sin + odd * cos
        if x.shape[1] % 2:
            # Odd d: the last column has no partner and is not rotated.
            out[:, -1] = x[:, -1]
        return out

    def rope(q, k, positions, theta, scale, out):
        angle = positions * theta
        cos, sin = torch.cos(angle), torch.sin(angle)
        rq, rk = rotate(q, cos, sin), rotate(k, cos, sin)
        return torch.addmm(out, rq, rk.T, beta=0.0, alpha=scale, out=out)

    return encoding, encoding_textbook, gram, attention, alibi, rope


def timer(torch, device):
    """A function timing a call: CUDA events on CUDA, wall time on the CPU (smoke test only)."""

    def time_cuda(fn):
        for _ in range(WARMUPS):
            fn()
        torch.cuda.synchronize()
        warming = time.perf_counter()
        while time.perf_counter() - warming < WARM_UP_SECONDS:
            fn()
            torch.cuda.synchronize()
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(RUNS + 1)]
        samples = []
        for start, end in events[:RUNS]:
            start.record()
            fn()
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end))
        start, end = events[RUNS]
        start.record()
        for _ in range(BACK_TO_BACK):
            fn()
        end.record()
        end.synchronize()
        return stats(samples, start.elapsed_time(end) / BACK_TO_BACK)

    def time_wall(fn):
        for _ in range(WARMUPS):
            fn()
        samples = []
        for _ in range(RUNS):
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        for _ in range(BACK_TO_BACK):
            fn()
        return stats(samples, (time.perf_counter() - start) * 1e3 / BACK_TO_BACK)

    return time_cuda if device == "cuda" else time_wall


def stats(samples, back_to_back):
    # "median" first: the bench reads the value after the first "median" following the key.
    samples = sorted(samples)
    return {
        "median": round(samples[len(samples) // 2], 4),
        "min": round(samples[0], 4),
        "runs": len(samples),
        "back_to_back_mean": round(back_to_back, 4),
        "back_to_back_calls": BACK_TO_BACK,
    }


def references(np):
    """Float64 NumPy versions of the kernels, for the accuracy check."""

    def encoding(n, d):
        omegas = BASE ** (-np.arange(0, d, 2, dtype=np.float64) / d)
        x = np.arange(n, dtype=np.float64)[:, None] * omegas
        return np.stack((np.sin(x), np.cos(x)), axis=2).reshape(n, -1)[:, :d]

    def softmax(s):
        s = s - s.max(axis=1, keepdims=True)
        e = np.exp(s)
        return e / e.sum(axis=1, keepdims=True)

    def attention(p, scale):
        return softmax(p @ p.T * scale)

    def alibi(p, scale):
        n = p.shape[0]
        offsets = np.arange(n, dtype=np.float64)[None, :] - np.arange(n, dtype=np.float64)[:, None]
        s = p @ p.T * scale + SLOPE * offsets
        s[offsets > 0] = -np.inf
        return softmax(s)

    def rope(p, theta, scale):
        n, d = p.shape
        pairs = len(theta)
        # The angle f32(m)·θ_t, rounded as the float32 model rounds it; then exact sin and cos.
        angle = (np.arange(n, dtype=np.float32)[:, None] * np.asarray(theta, dtype=np.float32))
        angle = angle.astype(np.float64)
        cos, sin = np.cos(angle), np.sin(angle)
        r = p.copy()
        even, odd = p[:, 0 : 2 * pairs : 2], p[:, 1 : 2 * pairs : 2]
        r[:, 0 : 2 * pairs : 2] = even * cos - odd * sin
        r[:, 1 : 2 * pairs : 2] = even * sin + odd * cos
        return r @ r.T * scale

    return encoding, attention, alibi, rope


def max_abs(np, ours, exact):
    return float(np.max(np.abs(ours.detach().cpu().double().numpy() - exact)))


def run(torch, device, encoding_size, kernel_sizes, check):
    encoding, encoding_textbook, gram, attention, alibi, rope = kernels(torch)
    time_ms = timer(torch, device)
    result = {}
    errors = {}
    if check:
        try:
            import numpy as np
        except ImportError as e:
            result["max_abs_error_vs_f64"] = f"skipped: no numpy ({e})"
            check = False
    if check:
        ref_encoding, ref_attention, ref_alibi, ref_rope = references(np)
    f = dict(dtype=torch.float32, device=device)

    def positions(n):
        return torch.arange(n, **f).reshape(n, 1)

    def encode(n, d):
        a, b, c = torch.tensor(turn_parts(d, BASE), **f).T.contiguous()
        rows = positions(n)
        return lambda: encoding(rows, a, b, c, d)

    n, d = encoding_size
    key = f"{n}x{d}"
    make_p = encode(n, d)
    result[f"encoding_{key}_ms"] = time_ms(make_p)
    omegas = torch.tensor([f32(BASE ** (-j / d)) for j in range(0, d, 2)], **f)
    pos = positions(n)
    result[f"encoding_textbook_{key}_ms"] = time_ms(lambda: encoding_textbook(pos, omegas, d))
    if check:
        exact = ref_encoding(n, d)
        errors[f"encoding_{key}"] = max_abs(np, make_p(), exact)
        errors[f"encoding_textbook_{key}"] = max_abs(np, encoding_textbook(pos, omegas, d), exact)

    for n, d in kernel_sizes:
        key = f"{n}x{d}"
        p = encode(n, d)()
        assert p.dtype == torch.float32 and p.shape == (n, d)
        scale = f32(1.0 / math.sqrt(d))
        out = torch.empty((n, n), **f)
        result[f"gram_{key}_ms"] = time_ms(lambda: gram(p, out))
        if check:
            p64 = p.cpu().double().numpy()
            errors[f"gram_{key}"] = max_abs(np, gram(p, out), p64 @ p64.T)
        result[f"attention_weights_{key}_ms"] = time_ms(lambda: attention(p, p, scale, out))
        if check:
            errors[f"attention_weights_{key}"] = max_abs(
                np, attention(p, p, scale, out), ref_attention(p64, scale)
            )
        offsets = torch.arange(n, **f)[None, :] - torch.arange(n, **f)[:, None]
        bias = (f32(SLOPE) * offsets).masked_fill(offsets > 0, float("-inf"))
        result[f"alibi_weights_{key}_ms"] = time_ms(lambda: alibi(p, p, scale, bias, out))
        if check:
            errors[f"alibi_weights_{key}"] = max_abs(
                np, alibi(p, p, scale, bias, out), ref_alibi(p64, scale)
            )
        del bias, offsets
        theta_list = theta_table(d, BASE)
        theta = torch.tensor(theta_list, **f).reshape(1, -1)
        pos = positions(n)
        result[f"rope_scores_{key}_ms"] = time_ms(lambda: rope(p, p, pos, theta, scale, out))
        if check:
            errors[f"rope_scores_{key}"] = max_abs(
                np, rope(p, p, pos, theta, scale, out), ref_rope(p64, theta_list, scale)
            )
        del out
        if device == "cuda":
            torch.cuda.empty_cache()
    if check:
        # Keys without "_ms", so that the bench's lookup of a timing key never lands here.
        result["max_abs_error_vs_f64"] = errors
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                        help="cpu: a smoke test of the script, not a reference (one thread)")
    parser.add_argument("--quick", action="store_true",
                        help=f"encoding {QUICK_ENCODING_SIZE}, kernels at {QUICK_KERNEL_SIZES}")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the float64 comparison (NumPy)")
    args = parser.parse_args()
    try:
        import torch
    except Exception as e:  # an ImportError, or a broken install raising something else
        unavailable(f"no torch: {type(e).__name__}: {e}")
    if args.device == "cuda" and not torch.cuda.is_available():
        built = torch.version.cuda or "no CUDA support"
        unavailable(
            f"no CUDA device: torch {torch.__version__} (built with {built}) reports "
            f"torch.cuda.is_available() = False"
        )
    # Full float32 products: TF32 would round the GEMM inputs to 10-bit mantissas.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    header = {"torch_version": torch.__version__, "device": args.device}
    if args.device == "cuda":
        header.update(device_name=torch.cuda.get_device_name(0), cuda=torch.version.cuda,
                      timing="cuda_events")
    else:
        # The CPU run only proves that the kernels run and agree with float64; one thread keeps it
        # from crowding the machine.
        torch.set_num_threads(1)
        header.update(smoke_test="CPU run of the script, not a GPU reference", timing="wall",
                      threads=1)
    header.update(dtype="float32", tf32=False, warmups=WARMUPS, warm_up_seconds=WARM_UP_SECONDS,
                  quick=args.quick)
    encoding_size, kernel_sizes = (
        (QUICK_ENCODING_SIZE, QUICK_KERNEL_SIZES) if args.quick else (ENCODING_SIZE, KERNEL_SIZES)
    )
    with torch.no_grad():
        header.update(run(torch, args.device, encoding_size, kernel_sizes, not args.no_check))
    print(json.dumps(header))


if __name__ == "__main__":
    main()
