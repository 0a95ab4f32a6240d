#!/usr/bin/env python3
"""Writes the Hugging Face reference that crates/pe-lab-minilm is tested against.

For every sentence of tests/fixtures/minilm/sentences.txt (one a line, split on "\\n" only, so
that a line separator or a vertical tab inside a sentence stays in it), the tokens and ids of
Hugging Face's own tokenizer reading the model's tokenizer.json; for the first FIRST_SENTENCES
sentences, transformers' float32 eager attention weights of all-MiniLM-L6-v2 ([layer, head,
query, key]) and last hidden state, with the learned position table and with its rows set to
zero (the page's `ptable=0`).

Writes
  target/minilm/reference.safetensors   every weight (tens of MB: not committed)
  tests/fixtures/minilm/reference.json  the tokens and ids of every sentence, and per sentence and
                                        head a few summaries of its weights (committed, < 1 MB)

Run it in a virtual environment with torch (CPU is enough) and transformers from PyPI, after
scripts/fetch-minilm.sh:
  python3 -m venv /work/minilm-venv
  /work/minilm-venv/bin/pip install torch transformers
  /work/minilm-venv/bin/python scripts/minilm_reference.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import tokenizers
import torch
import transformers
from safetensors.numpy import save_file
from tokenizers import Tokenizer
from transformers import AutoTokenizer, BertModel

ROOT = Path(__file__).resolve().parent.parent
MODEL_DIR = ROOT / "target" / "minilm"
SENTENCES = ROOT / "tests" / "fixtures" / "minilm" / "sentences.txt"
FIXTURE = ROOT / "tests" / "fixtures" / "minilm" / "reference.json"
REFERENCE = MODEL_DIR / "reference.safetensors"
# The sentences whose attention weights are written in full (the first ones of the corpus, which
# puts a few of 64+ tokens among them).
FIRST_SENTENCES = 50
# How many of the [CLS] token's last hidden values the fixture keeps, per sentence and table.
CLS_VALUES_KEPT = 8
# Significant digits of the fixture's summaries: far below the tests' tolerance (2e-3), and the
# file stays small.
SUMMARY_DIGITS = 8


def read_sentences() -> list[str]:
    text = SENTENCES.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        sys.exit(f"{SENTENCES}: the last line must end with a newline")
    return text[:-1].split("\n")


def rounded(values: np.ndarray) -> list:
    return np.vectorize(lambda v: float(f"{v:.{SUMMARY_DIGITS}g}"))(values).tolist()


def summaries(attention: np.ndarray, hidden: np.ndarray) -> dict:
    """Figures of one forward pass small enough to commit: per [layer][head], the largest weight
    and the sum of the diagonal (how much each token attends to itself: sensitive to position)."""
    return {
        "attention_max": rounded(attention.max(axis=(2, 3))),
        "attention_diagonal_sum": rounded(np.trace(attention, axis1=2, axis2=3)),
        "last_hidden_state_max_abs": float(f"{np.abs(hidden).max():.{SUMMARY_DIGITS}g}"),
        "cls_first_values": rounded(hidden[0, :CLS_VALUES_KEPT]),
    }


def main() -> None:
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        if not (MODEL_DIR / name).is_file():
            sys.exit(f"{MODEL_DIR / name} is missing: run scripts/fetch-minilm.sh first")
    sentences = read_sentences()

    # The tokenizer as tokenizer.json defines it, read by Hugging Face's tokenizers library. The
    # file also carries sentence-transformers' encode settings (truncation to 128 tokens, padding
    # to 128); they are not part of the tokenization and transformers' tokenizer turns them off
    # for a call without truncation or padding, as here.
    tokenizer = Tokenizer.from_file(str(MODEL_DIR / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    encodings = [tokenizer.encode(sentence) for sentence in sentences]

    # transformers' tokenizer over the same file must agree (it is the one the model is used with).
    auto_tokenizer = AutoTokenizer.from_pretrained(str(MODEL_DIR))
    disagreements = [
        index
        for index, (sentence, encoding) in enumerate(zip(sentences, encodings))
        if auto_tokenizer(sentence)["input_ids"] != encoding.ids
    ]
    if disagreements:
        sys.exit(f"transformers' tokenizer disagrees with tokenizers on sentences {disagreements}")

    torch.manual_seed(0)
    model = BertModel.from_pretrained(
        str(MODEL_DIR), attn_implementation="eager", dtype=torch.float32
    )
    model.eval()

    def forward(ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        input_ids = torch.tensor([ids], dtype=torch.long)
        with torch.no_grad():
            output = model(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                token_type_ids=torch.zeros_like(input_ids),
                output_attentions=True,
            )
        attention = torch.stack([layer[0] for layer in output.attentions]).numpy()
        return attention.astype(np.float32), output.last_hidden_state[0].numpy().astype(np.float32)

    first = encodings[:FIRST_SENTENCES]
    with_table = [forward(encoding.ids) for encoding in first]
    # The page's `ptable=0`: the learned position table's rows set to zero, nothing else changed.
    model.embeddings.position_embeddings.weight.data.zero_()
    without_table = [forward(encoding.ids) for encoding in first]

    tensors: dict[str, np.ndarray] = {}
    for index, encoding in enumerate(first):
        tensors[f"sentence.{index}.input_ids"] = np.array(encoding.ids, dtype=np.int64)
        for table, (attention, hidden) in (
            ("with_table", with_table[index]),
            ("without_table", without_table[index]),
        ):
            tensors[f"sentence.{index}.attention.{table}"] = np.ascontiguousarray(attention)
            tensors[f"sentence.{index}.last_hidden_state.{table}"] = np.ascontiguousarray(hidden)
    versions = {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "tokenizers": tokenizers.__version__,
    }
    save_file(tensors, str(REFERENCE), metadata={**versions, "sentences": str(len(first))})

    fixture = {
        "about": "Hugging Face's tokens and ids for tests/fixtures/minilm/sentences.txt, and "
        "summaries of transformers' float32 eager attention for the first sentences, with and "
        "without the position table; written by scripts/minilm_reference.py",
        "versions": versions,
        "sentences": [
            {"text": sentence, "tokens": encoding.tokens, "ids": encoding.ids}
            for sentence, encoding in zip(sentences, encodings)
        ],
        "forward_summaries": [
            {
                "index": index,
                "with_table": summaries(*with_table[index]),
                "without_table": summaries(*without_table[index]),
            }
            for index in range(len(first))
        ],
    }
    FIXTURE.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    lengths = [len(encoding.ids) for encoding in encodings]
    print(
        f"{len(sentences)} sentences ({sum(n >= 64 for n in lengths)} of 64+ tokens, the longest "
        f"{max(lengths)}), transformers' tokenizer agrees on all; attention for the first "
        f"{len(first)} ({sum(len(e.ids) >= 64 for e in first)} of 64+ tokens)"
    )
    print(f"wrote {REFERENCE.relative_to(ROOT)} ({REFERENCE.stat().st_size} bytes)")
    print(f"wrote {FIXTURE.relative_to(ROOT)} ({FIXTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
