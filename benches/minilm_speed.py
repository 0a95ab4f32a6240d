#!/usr/bin/env python3
"""PyTorch's one-thread CPU forward pass of all-MiniLM-L6-v2 on the benchmark's 16- and 64-token
sentences (crates/pe-lab-minilm/examples/forward_speed.rs holds them): the anchor beside the
native and the page's figures in docs/benchmarks.md. float32, eager attention, attention weights
returned (as the page computes them), from target/minilm/ (scripts/fetch-minilm.sh).

    /work/minilm-venv/bin/python benches/minilm_speed.py
"""

import re
import statistics
import time
from pathlib import Path

import torch
from transformers import BertModel, BertTokenizerFast

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "target" / "minilm"
RUNS = 15


def sentences():
    source = (ROOT / "crates/pe-lab-minilm/examples/forward_speed.rs").read_text()
    block = source[source.index("SENTENCES"):source.index("];")]
    return [s.replace("\\'", "'") for s in re.findall(r'"((?:[^"\\]|\\.)*)"', block)]


def main():
    torch.set_num_threads(1)
    tokenizer = BertTokenizerFast(tokenizer_file=str(MODEL / "tokenizer.json"))
    model = BertModel.from_pretrained(str(MODEL), attn_implementation="eager").eval()
    print(f"PyTorch {torch.__version__}, one thread, median of {RUNS} (min-max) in ms")
    for sentence in sentences():
        inputs = tokenizer(sentence, return_tensors="pt")
        with torch.inference_mode():
            model(**inputs, output_attentions=True)
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                model(**inputs, output_attentions=True)
                times.append((time.perf_counter() - start) * 1e3)
        times.sort()
        n = inputs["input_ids"].shape[1]
        print(f"{n:>3} tokens: {statistics.median(times):.2f} ({times[0]:.2f}-{times[-1]:.2f})")


if __name__ == "__main__":
    main()
