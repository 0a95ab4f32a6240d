#!/usr/bin/env python3
"""Writes tests/fixtures/minilm/e2e-attention.json: transformers' full attention weights of two
sentences (with the position table and with its rows set to zero), for the end-to-end test that
checks the page's pretrained panel against them (tests/e2e/pretrained.test.mjs).

It reads target/minilm/reference.safetensors, written by scripts/minilm_reference.py (torch and
transformers' float32 eager attention), so it needs only numpy and safetensors:
  /work/minilm-venv/bin/python scripts/minilm_e2e_fixture.py
"""

from __future__ import annotations

import json
from pathlib import Path

from safetensors.numpy import load_file

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "target" / "minilm" / "reference.safetensors"
SENTENCES = ROOT / "tests" / "fixtures" / "minilm" / "sentences.txt"
OUT = ROOT / "tests" / "fixtures" / "minilm" / "e2e-attention.json"
# A short sentence, and the first of the reference's sentences with at least 16 tokens.
SHORT = 0
LONG_TOKENS = 16


def main() -> None:
    tensors = load_file(str(REFERENCE))
    texts = SENTENCES.read_text(encoding="utf-8").split("\n")
    count = len({key.split(".")[1] for key in tensors})
    long_index = next(
        i for i in range(count) if len(tensors[f"sentence.{i}.input_ids"]) >= LONG_TOKENS
    )
    cases = []
    for index in (SHORT, long_index):
        prefix = f"sentence.{index}"
        cases.append(
            {
                "text": texts[index],
                "ids": [int(i) for i in tensors[f"{prefix}.input_ids"]],
                # Five decimals: far below the 2e-3 the test allows, and a file under 1 MB.
                "withTable": tensors[f"{prefix}.attention.with_table"].astype("float64").round(5).tolist(),
                "withoutTable": tensors[f"{prefix}.attention.without_table"].astype("float64").round(5).tolist(),
            }
        )
    OUT.write_text(
        json.dumps({"about": __doc__.split("\n\n")[0], "cases": cases}, separators=(",", ":"))
        + "\n",
        encoding="utf-8",
    )
    print(f"{OUT}: {OUT.stat().st_size} bytes; sentences {SHORT} and {long_index}")


if __name__ == "__main__":
    main()
