"""PyTorch reference for the training lab (crates/pe-lab-train), float32, one thread, eager mode.

The model is the crate's, rebuilt from its definition: a token embedding (no scaling) plus the
position scheme, then `layers` × (multi-head attention with bias-free W_q, W_k, W_v, W_o, scores
q·k/√d_head plus the scheme's bias, a residual sum, post-norm LayerNorm with ε = 1e-5, an optional
ReLU MLP d → 4d → d with biases and its own residual sum and LayerNorm), then a linear readout with
a bias at every position, and the mean cross-entropy over the positions that have a target.
Weights are stored as the crate stores them (x @ W, W of shape in × out; tensor names and shapes
as params.rs lays them out), so a dump from the crate loads as it is. Every fixed table is
computed here from its definition, not read from the crate: the sinusoid (columns 2t, 2t + 1 =
sin, cos of i·10000^(−2t/width)), RoPE on interleaved pairs of each head, the ALiBi slopes of the
reference code, T5's bucket function as Hugging Face writes it, Shaw's clip(j − i, ±4).

Default mode (what `cargo bench -p pe-lab-train` runs): training steps per second — sampling a
batch, forward, backward and torch.optim.Adam's step — at the size benches/steps.rs measures
first (task shift k = 3, vocabulary 16, batch 64, lengths drawn uniformly from 8–16 each step as
the crate's trainer does, d = 32, 2 heads, 2 layers, LayerNorm, no MLP, Adam at 3e-3). After
WARMUP_STEPS untimed steps, WINDOWS windows each run until WINDOW_SECONDS of this thread's CPU time
(time.thread_time, the counterpart of the Rust bench's /proc/thread-self/schedstat: the machine
may be shared) have passed; the median, minimum and maximum steps per CPU second over the windows
are reported, with the wall-clock rate beside them. One JSON object goes to stdout.

To give PyTorch its best eager form: Adam is torch.optim.Adam(fused=True) (the same update as
the crate's, PyTorch's defaults; on this size ~12% more steps per second than the default
for-loop implementation; `--adam` chooses), and RoPE rotates with two multiplies and a swap
(a standard "rotate half" on interleaved pairs). The attention is written out, the same for every
scheme; F.scaled_dot_product_attention measured no faster at n ≤ 16 for the schemes it can do.

`--check`: gradient agreement with the crate. For each encoding and variant it runs
`cargo run --release -q -p pe-lab-train --example dump_step -- <encoding> …`, loads the crate's
weights and batch into this model, and compares the loss and the gradient of every tensor with
the crate's, in float32 (the crate's f32 build against this model in float32) and in float64 (the
crate's f64 build at the same weights against this model in float64, which leaves no float32
rounding to hide a difference in the model). The error of a tensor is

    max_i |rust_i − torch_i| / max(|torch_i|, FLOOR · max_j |torch_j|)

that is, an entry's relative error, except that entries smaller than FLOOR = 1e-2 of the
tensor's largest are measured against that floor instead: such entries come out of sums of far
larger terms (a weight gradient sums over all 1024 positions of the batch), whose float32
rounding is an absolute error on the scale of the whole tensor, so an unfloored relative error
there measures cancellation, not agreement. (With a floor of 1e-3 this model in float32 is itself
up to ~1e-4 away from its own float64 gradients.) The loss's error is its plain relative error.
The check passes when every f32 error is ≤ TOLERANCE = 1e-4. Beside each f32 error, the errors of
the crate's f32 gradients and of this model's against the float64 ones show how much of the
difference is each side's rounding. One JSON object goes to stdout, a table to stderr; the exit
status is 1 if some check failed.

`--device cuda`: the default mode's model on a CUDA GPU, float32, eager (what `cargo bench
--bench train_gpu` compares the WGSL trainer with): parameters, fixed tables and Adam's state
(torch.optim.Adam(fused=True)) on the GPU, each batch sampled on the GPU by a CUDA generator (the
WGSL trainer samples on the CPU and uploads; sampling on the device is PyTorch's best form). The
clock is the wall clock: each window runs steps until WINDOW_SECONDS have passed and then
synchronises once (torch.cuda.synchronize), so that steps queue up as they do in a training loop
and the window still counts only finished work; the median, minimum and maximum steps per second
over the windows are reported under "steps_per_wall_second".

Without PyTorch (or, with `--device cuda`, without CUDA), either mode prints {"error": why} and
exits 0.

    python3 benches/train_reference.py [--encodings none,rope] [--windows 5] [--seconds 0.3]
                                       [--adam fused|foreach|default]
    python3 benches/train_reference.py --device cuda [--encodings sinusoidal] [--windows 5]
                                       [--seconds 0.3]
    python3 benches/train_reference.py --check [--encodings …]
"""

import os

# One thread, set before PyTorch is imported (its OpenMP and MKL read these when they load): the
# crate trains on one thread, and a multi-threaded comparison would say nothing about the code.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except Exception as error:  # noqa: BLE001 - a broken install raises more than ImportError
    torch = None
    TORCH_ERROR = f"PyTorch is not usable: {type(error).__name__}: {error}"

ENCODINGS = ("none", "sinusoidal", "concat", "learned", "conv", "rope", "alibi", "t5", "shaw")
BASE = 10000.0
LEARNED_STD = 0.02
CONV_KERNEL = 3
SHAW_CLIP = 4
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128
HISTOGRAM_CAP = 8
NORM_EPSILON = 1e-5
WARMUP_STEPS = 10
WINDOWS = 5
WINDOW_SECONDS = 0.3
FLOOR = 1e-2
TOLERANCE = 1e-4
# The crate's defaults (TrainConfig::default), which are also benches/steps.rs's first block.
DEFAULT_CONFIG = {
    "task": "shift", "shift_k": 3, "vocab": 16, "train_length": 16, "d": 32, "heads": 2,
    "layers": 2, "causal": False, "layer_norm": True, "mlp": False, "batch": 64, "seed": 1,
    "learning_rate": 3e-3,
}
# The check's variants: the default configuration at the training length, and one with the MLP,
# the causal mask and a shorter batch (a learned table longer than the batch), and the histogram
# task without LayerNorm.
CHECK_VARIANTS = ([], ["length=11", "mlp", "causal"], ["length=9", "task=histogram", "nonorm"])


def classes(cfg):
    return HISTOGRAM_CAP if cfg["task"] == "histogram" else cfg["vocab"]


def layout(cfg):
    """(name, rows, cols, std or "zeros" or "ones") of every tensor, in params.rs's order."""
    d, heads, hidden, enc = cfg["d"], cfg["heads"], 4 * cfg["d"], cfg["encoding"]
    token_width = d - d // 2 if enc == "concat" else d
    out = [("token_embedding", cfg["vocab"], token_width, 1.0)]
    if enc == "learned":
        out.append(("position_table", cfg["train_length"], d, LEARNED_STD))
    if enc == "conv":
        out += [("conv_weight", CONV_KERNEL, d, CONV_KERNEL ** -0.5), ("conv_bias", 1, d, "zeros")]
    projection = d ** -0.5
    for layer in range(cfg["layers"]):
        name = f"layer{layer}."
        out += [(name + w, d, d, projection) for w in ("w_q", "w_k", "w_v", "w_o")]
        if enc == "t5":
            out.append((name + "t5_bias", heads, T5_BUCKETS, LEARNED_STD))
        if enc == "shaw":
            cols = (2 * SHAW_CLIP + 1) * (d // heads)
            out += [(name + "shaw_key", heads, cols, LEARNED_STD),
                    (name + "shaw_value", heads, cols, LEARNED_STD)]
        if cfg["layer_norm"]:
            out += [(name + "norm1_gain", 1, d, "ones"), (name + "norm1_bias", 1, d, "zeros")]
        if cfg["mlp"]:
            out += [(name + "mlp_in", d, hidden, projection),
                    (name + "mlp_in_bias", 1, hidden, "zeros"),
                    (name + "mlp_out", hidden, d, hidden ** -0.5),
                    (name + "mlp_out_bias", 1, d, "zeros")]
            if cfg["layer_norm"]:
                out += [(name + "norm2_gain", 1, d, "ones"), (name + "norm2_bias", 1, d, "zeros")]
    return out + [("readout", d, classes(cfg), projection), ("readout_bias", 1, classes(cfg), "zeros")]


def random_params(cfg, generator):
    """Fresh parameters drawn like the crate's (the same shapes and scales, another generator)."""
    params = {}
    for name, rows, cols, init in layout(cfg):
        if init == "zeros":
            value = torch.zeros(rows, cols)
        elif init == "ones":
            value = torch.ones(rows, cols)
        else:
            value = torch.randn(rows, cols, generator=generator) * init
        params[name] = value.requires_grad_()
    return params


def sinusoid(n, width):
    """The sinusoidal table, computed in float64 and rounded to float32."""
    pairs = (width + 1) // 2
    omega = BASE ** (-2.0 * torch.arange(pairs, dtype=torch.float64) / width)
    angle = torch.arange(n, dtype=torch.float64)[:, None] * omega
    table = torch.stack((angle.sin(), angle.cos()), dim=-1).reshape(n, 2 * pairs)
    return table[:, :width].float()


def alibi_slopes(heads):
    """The ALiBi reference code's get_slopes (geometric from 2^(−8/n); others interleaved)."""
    def power_of_two(n):
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]
    lower = 2 ** int(math.log2(heads))
    return power_of_two(lower) + power_of_two(2 * lower)[0::2][: heads - lower]


def t5_bucket(relative, bidirectional):
    """Hugging Face's T5Attention._relative_position_bucket (relative = key − query)."""
    buckets, out = T5_BUCKETS, torch.zeros_like(relative)
    if bidirectional:
        buckets //= 2
        out += (relative > 0).long() * buckets
        relative = relative.abs()
    else:
        relative = -torch.clamp(relative, max=0)
    max_exact = buckets // 2
    large = max_exact + (
        torch.log(relative.clamp(min=1).float() / max_exact)
        / math.log(T5_MAX_DISTANCE / max_exact)
        * (buckets - max_exact)
    ).to(torch.long)
    large = torch.clamp(large, max=buckets - 1)
    return out + torch.where(relative < max_exact, relative, large)


def tables(cfg, n, dtype):
    """The fixed tables of a model for sequences of length n."""
    enc, d, heads = cfg["encoding"], cfg["d"], cfg["heads"]
    dh = d // heads
    out = {}
    offsets = torch.arange(n)[None, :] - torch.arange(n)[:, None]  # [i, j] = j − i
    # The crate's sinusoid is the math crate's float32 table, in its f64 build as well.
    if enc == "sinusoidal":
        out["sinusoid"] = sinusoid(n, d).to(dtype)
    elif enc == "concat":
        out["sinusoid"] = sinusoid(n, d // 2).to(dtype)
    elif enc == "rope":
        # As the crate does it: θ_t rounded to the float type once, the angle one multiply in it.
        theta = (BASE ** (-2.0 * torch.arange(dh // 2, dtype=torch.float64) / dh)).to(dtype)
        angle = torch.arange(n, dtype=dtype)[:, None] * theta
        # Each pair's cosine twice, its sine as (−sin, sin): see rope().
        cos = angle.cos().repeat_interleave(2, dim=-1)
        sin = torch.stack((-angle.sin(), angle.sin()), dim=-1).flatten(-2)
        out["cos"], out["sin"] = cos[None, :, None, :], sin[None, :, None, :]
    elif enc == "alibi":
        slopes = torch.tensor(alibi_slopes(heads), dtype=torch.float64)
        out["alibi"] = (-slopes[:, None, None] * offsets.abs().double()).to(dtype)
    elif enc == "t5":
        out["bucket"] = t5_bucket(offsets, not cfg["causal"])
    elif enc == "shaw":
        index = offsets.clamp(-SHAW_CLIP, SHAW_CLIP) + SHAW_CLIP
        out["shaw"] = F.one_hot(index, 2 * SHAW_CLIP + 1).to(dtype)  # [i, j, row]
    if cfg["causal"]:
        out["mask"] = offsets > 0
    return out


def rope(x, fixed):
    """Rotates the interleaved pairs (2t, 2t + 1) of every head; x is (batch, n, heads, dh)."""
    # (a, b)·cos + (b, a)·(−sin, sin) = (a cos − b sin, a sin + b cos), the crate's rotation.
    swapped = x.unflatten(-1, (-1, 2)).flip(-1).flatten(-2)
    return x * fixed["cos"] + swapped * fixed["sin"]


def layer_norm(x, p, which):
    return F.layer_norm(x, x.shape[-1:], p[which + "_gain"][0], p[which + "_bias"][0], NORM_EPSILON)


def attention(cfg, p, name, x, fixed):
    batch, n, d = x.shape
    heads, enc = cfg["heads"], cfg["encoding"]
    dh = d // heads
    q, k, v = ((x @ p[name + w]).view(batch, n, heads, dh) for w in ("w_q", "w_k", "w_v"))
    if enc == "rope":
        q, k = rope(q, fixed), rope(k, fixed)
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (batch, heads, n, dh)
    scores = q @ k.transpose(-1, -2)
    if enc == "shaw":
        key_table = p[name + "shaw_key"].view(heads, -1, dh)
        scores = scores + torch.einsum("bhir,ijr->bhij", q @ key_table.transpose(-1, -2), fixed["shaw"])
    scores = scores * (1.0 / math.sqrt(dh))
    if enc == "t5":
        scores = scores + p[name + "t5_bias"][:, fixed["bucket"]]
    elif enc == "alibi":
        scores = scores + fixed["alibi"]
    if cfg["causal"]:
        scores = scores.masked_fill(fixed["mask"], float("-inf"))
    weights = scores.softmax(dim=-1)
    out = weights @ v
    if enc == "shaw":
        value_table = p[name + "shaw_value"].view(heads, -1, dh)
        out = out + torch.einsum("bhij,ijr->bhir", weights, fixed["shaw"]) @ value_table
    return out.transpose(1, 2).reshape(batch, n, d) @ p[name + "w_o"]


def loss_of(cfg, p, tokens, targets, fixed):
    """The mean cross-entropy over the positions whose target is not −1."""
    enc, d = cfg["encoding"], cfg["d"]
    batch, n = tokens.shape
    x = p["token_embedding"][tokens]
    if enc == "sinusoidal":
        x = x + fixed["sinusoid"]
    elif enc == "concat":
        x = torch.cat((x, fixed["sinusoid"].expand(batch, n, -1)), dim=-1)
    elif enc == "learned":
        x = x + p["position_table"][:n]
    elif enc == "conv":
        # conv1d is a cross-correlation: output i reads input i + o − 1 through kernel row o.
        kernel = p["conv_weight"].t().unsqueeze(1)  # (d, 1, CONV_KERNEL)
        conv = F.conv1d(x.transpose(1, 2), kernel, padding=CONV_KERNEL // 2, groups=d)
        x = x + conv.transpose(1, 2) + p["conv_bias"][0]
    for layer in range(cfg["layers"]):
        name = f"layer{layer}."
        x = x + attention(cfg, p, name, x, fixed)
        if cfg["layer_norm"]:
            x = layer_norm(x, p, name + "norm1")
        if cfg["mlp"]:
            hidden = torch.relu(x @ p[name + "mlp_in"] + p[name + "mlp_in_bias"][0])
            x = x + hidden @ p[name + "mlp_out"] + p[name + "mlp_out_bias"][0]
            if cfg["layer_norm"]:
                x = layer_norm(x, p, name + "norm2")
    logits = x @ p["readout"] + p["readout_bias"][0]
    return F.cross_entropy(logits.reshape(batch * n, -1), targets.reshape(-1), ignore_index=-1)


def sample_batch(cfg, n, generator):
    tokens = torch.randint(cfg["vocab"], (cfg["batch"], n), generator=generator)
    if cfg["task"] == "shift":
        k = cfg["shift_k"]
        targets = torch.full_like(tokens, -1)
        targets[:, k:] = tokens[:, :-k]
    elif cfg["task"] == "reverse":
        targets = tokens.flip(1)
    else:
        counts = (tokens[:, :, None] == tokens[:, None, :]).sum(-1)
        targets = counts.clamp(max=HISTOGRAM_CAP) - 1
    return tokens, targets


def length_range(cfg):
    """TrainConfig::length_range: max(⌈train_length/2⌉, shift_k + 1 on shift) to train_length."""
    longest = cfg["train_length"]
    shortest = (longest + 1) // 2
    if cfg["task"] == "shift":
        shortest = max(shortest, cfg["shift_k"] + 1)
    return min(shortest, longest), longest


def adam(params, lr, kind):
    """torch.optim.Adam in the implementation asked for, and the one it got."""
    options = {"fused": {"fused": True}, "foreach": {"foreach": True}, "default": {}}[kind]
    try:
        return torch.optim.Adam(params, lr=lr, **options), kind
    except (RuntimeError, TypeError, ValueError):  # an older PyTorch without it on the CPU
        return torch.optim.Adam(params, lr=lr), "default"


def bench_one(cfg, windows, seconds, adam_kind):
    generator = torch.Generator().manual_seed(cfg["seed"])
    params = random_params(cfg, generator)
    optimizer, adam_kind = adam(list(params.values()), cfg["learning_rate"], adam_kind)
    shortest, longest = length_range(cfg)
    # The crate's Model caches its tables for the longest length; slicing them is the same here.
    fixed_by_length = {n: tables(cfg, n, torch.float32) for n in range(shortest, longest + 1)}
    lengths = random.Random(cfg["seed"])

    def step():
        n = lengths.randint(shortest, longest)
        tokens, targets = sample_batch(cfg, n, generator)
        loss = loss_of(cfg, params, tokens, targets, fixed_by_length[n])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for _ in range(WARMUP_STEPS):
        step()
    cpu_rates, wall_rates, process_share = [], [], []
    for _ in range(windows):
        steps = 0
        cpu0, wall0, process0 = time.thread_time(), time.perf_counter(), time.process_time()
        while time.thread_time() - cpu0 < seconds:
            step()
            steps += 1
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        cpu_rates.append(steps / cpu)
        wall_rates.append(steps / wall)
        process_share.append((time.process_time() - process0) / cpu)
    cpu_rates.sort()
    return {
        "steps_per_cpu_second": {"median": round(statistics.median(cpu_rates), 2),
                                 "min": round(cpu_rates[0], 2), "max": round(cpu_rates[-1], 2)},
        "steps_per_wall_second": round(statistics.median(wall_rates), 2),
        # The whole process's CPU time over this thread's: near 1 when no helper thread worked.
        "process_over_thread_cpu": round(max(process_share), 3),
        "windows": windows,
        "adam": adam_kind,
    }


def bench(encodings, windows, seconds, adam_kind):
    torch.set_num_threads(1)
    result = {"torch_version": torch.__version__, "threads": torch.get_num_threads(),
              "clock": "time.thread_time (this thread's CPU time)", "window_seconds": seconds,
              "config": dict(DEFAULT_CONFIG, lengths=length_range(DEFAULT_CONFIG)),
              "encodings": {}}
    for enc in encodings:
        result["encodings"][enc] = bench_one(
            dict(DEFAULT_CONFIG, encoding=enc), windows, seconds, adam_kind)
        rate = result["encodings"][enc]["steps_per_cpu_second"]["median"]
        print(f"  {enc:>10}: {rate:8.1f} steps per CPU second", file=sys.stderr)
    return result


def bench_cuda_one(cfg, windows, seconds):
    device = torch.device("cuda")
    generator = torch.Generator().manual_seed(cfg["seed"])
    params = {name: value.detach().to(device).requires_grad_()
              for name, value in random_params(cfg, generator).items()}
    optimizer, adam_kind = adam(list(params.values()), cfg["learning_rate"], "fused")
    shortest, longest = length_range(cfg)
    fixed_by_length = {
        n: {name: value.to(device) for name, value in tables(cfg, n, torch.float32).items()}
        for n in range(shortest, longest + 1)}
    lengths = random.Random(cfg["seed"])
    cuda_generator = torch.Generator(device=device).manual_seed(cfg["seed"])

    def sample(n):
        tokens = torch.randint(cfg["vocab"], (cfg["batch"], n), generator=cuda_generator,
                               device=device)
        if cfg["task"] == "shift":
            k = cfg["shift_k"]
            targets = torch.full_like(tokens, -1)
            targets[:, k:] = tokens[:, :-k]
        elif cfg["task"] == "reverse":
            targets = tokens.flip(1)
        else:
            counts = (tokens[:, :, None] == tokens[:, None, :]).sum(-1)
            targets = counts.clamp(max=HISTOGRAM_CAP) - 1
        return tokens, targets

    def step():
        n = lengths.randint(shortest, longest)
        tokens, targets = sample(n)
        loss = loss_of(cfg, params, tokens, targets, fixed_by_length[n])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss

    for _ in range(WARMUP_STEPS):
        step()
    torch.cuda.synchronize()
    rates = []
    for _ in range(windows):
        steps = 0
        wall0 = time.perf_counter()
        while time.perf_counter() - wall0 < seconds:
            step()
            steps += 1
        torch.cuda.synchronize()
        rates.append(steps / (time.perf_counter() - wall0))
    rates.sort()
    return {
        "steps_per_wall_second": {"median": round(statistics.median(rates), 2),
                                  "min": round(rates[0], 2), "max": round(rates[-1], 2)},
        "windows": windows,
        "adam": adam_kind,
    }


def bench_cuda(encodings, windows, seconds):
    result = {"torch_version": torch.__version__, "device": "cuda",
              "gpu": torch.cuda.get_device_name(0),
              "clock": "time.perf_counter, one torch.cuda.synchronize per window",
              "window_seconds": seconds,
              "config": dict(DEFAULT_CONFIG, lengths=length_range(DEFAULT_CONFIG)),
              "encodings": {}}
    for enc in encodings:
        result["encodings"][enc] = bench_cuda_one(dict(DEFAULT_CONFIG, encoding=enc), windows,
                                                  seconds)
        rate = result["encodings"][enc]["steps_per_wall_second"]["median"]
        print(f"  {enc:>10}: {rate:8.1f} steps per second (CUDA)", file=sys.stderr)
    return result


def dump(enc, options):
    """The crate's dump_step JSON for one encoding."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    command = [os.environ.get("CARGO", "cargo"), "run", "--release", "-q", "-p", "pe-lab-train",
               "--example", "dump_step", "--", enc, *options]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def error(rust, ours):
    """The floored relative error of the docstring, of one tensor."""
    ours = ours.double()
    scale = ours.abs().max().item()
    floor = max(FLOOR * scale, 1e-300)
    return ((rust.double() - ours).abs() / ours.abs().clamp(min=floor)).max().item()


def gradients(cfg, data, tokens, targets, dtype):
    """This model's loss and gradients (as float64) at the crate's weights."""
    # Through float32 first: the dump prints the shortest decimal that reads back to the same
    # float32, which read directly as a float64 would be another number.
    params = {t["name"]: torch.tensor(t["values"], dtype=torch.float32).to(dtype)
              .view(t["rows"], t["cols"]).requires_grad_() for t in data["params"]}
    loss = loss_of(cfg, params, tokens, targets, tables(cfg, tokens.shape[1], dtype))
    loss.backward()
    return {"loss": loss.item(), "grads": {k: v.grad.double() for k, v in params.items()}}


def worst(theirs, ours):
    """The largest error over the loss and every gradient tensor, and its name."""
    out = (abs(theirs["loss"] - ours["loss"]) / abs(ours["loss"]), "loss")
    for name, grad in ours["grads"].items():
        other = torch.as_tensor(theirs["grads"][name], dtype=torch.float64).view(grad.shape)
        out = max(out, (error(other, grad), name))
    return out


def check_one(data):
    cfg = dict(data["config"])
    names = [(t["name"], t["rows"], t["cols"]) for t in data["params"]]
    if names != [entry[:3] for entry in layout(cfg)]:
        raise RuntimeError(f"the crate's tensors differ from this layout: {names}")
    batch = data["batch"]
    shape = (batch["sequences"], batch["length"])
    tokens = torch.tensor(batch["tokens"]).view(shape)
    targets = torch.tensor(batch["targets"]).view(shape)
    ours = {p: gradients(cfg, data, tokens, targets, dtype)
            for p, dtype in (("f32", torch.float32), ("f64", torch.float64))}
    result = {}
    for precision in ("f32", "f64"):
        error_, name = worst(data[precision], ours[precision])
        result[precision] = {"loss_rust": data[precision]["loss"],
                             "loss_torch": ours[precision]["loss"],
                             "max_error": error_, "worst": name}
    # Each float32 side against the float64 gradients: how much of the difference is whose.
    result["f32"]["rust_vs_f64"] = worst(data["f32"], ours["f64"])[0]
    result["f32"]["torch_vs_f64"] = worst(ours["f32"], ours["f64"])[0]
    return result


def check(encodings):
    torch.set_num_threads(1)
    result = {"torch_version": torch.__version__, "floor": FLOOR, "tolerance": TOLERANCE,
              "runs": [], "all_passed": True}
    print(f"{'encoding':>10} {'options':<34} {'loss':>8} {'f32 error':>9} {'worst tensor':<18}"
          f" {'f64 error':>9} {'Rust f32':>9} {'torch f32':>9}  (last two: vs float64)",
          file=sys.stderr)
    for enc in encodings:
        for options in CHECK_VARIANTS:
            run = {"encoding": enc, "options": " ".join(options)}
            run.update(check_one(dump(enc, options)))
            run["passed"] = run["f32"]["max_error"] <= TOLERANCE
            result["all_passed"] &= run["passed"]
            result["runs"].append(run)
            f32, f64 = run["f32"], run["f64"]
            print(f"{enc:>10} {run['options']:<34} {f32['loss_torch']:8.5f} {f32['max_error']:9.2e}"
                  f" {f32['worst']:<18} {f64['max_error']:9.2e} {f32['rust_vs_f64']:9.2e}"
                  f" {f32['torch_vs_f64']:9.2e}", file=sys.stderr)
    for precision in ("f32", "f64"):
        result[f"max_error_{precision}"] = max(r[precision]["max_error"] for r in result["runs"])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare gradients with the crate's")
    parser.add_argument("--encodings", default=",".join(ENCODINGS))
    parser.add_argument("--windows", type=int, default=WINDOWS)
    parser.add_argument("--seconds", type=float, default=WINDOW_SECONDS)
    parser.add_argument("--adam", choices=("fused", "foreach", "default"), default="fused",
                        help="torch.optim.Adam's implementation (default: fused, the fastest)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="where the default mode trains (cuda: see the module's docstring)")
    args = parser.parse_args()
    if torch is None:
        print(json.dumps({"error": TORCH_ERROR}))
        return 0
    encodings = [e for e in args.encodings.split(",") if e]
    unknown = [e for e in encodings if e not in ENCODINGS]
    if unknown:
        parser.error(f"unknown encodings: {unknown}")
    if args.check:
        result = check(encodings)
        print(json.dumps(result))
        return 0 if result["all_passed"] else 1
    if args.device == "cuda":
        if not torch.cuda.is_available():
            print(json.dumps({"error": "PyTorch has no CUDA device (torch.cuda.is_available())"}))
            return 0
        print(json.dumps(bench_cuda(encodings, args.windows, args.seconds)))
        return 0
    print(json.dumps(bench(encodings, args.windows, args.seconds, args.adam)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
