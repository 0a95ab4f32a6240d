#!/usr/bin/env python3
"""Lists the Rust functions whose bodies are longer than a limit (80 lines unless given), in src/
and crates/, test code left out (files under tests/, and `#[cfg(test)]` modules), longest first.

    python3 scripts/long_fns.py [limit]

A body is counted from the line of `fn` to the line of its closing brace. Braces are matched with
strings, characters and comments skipped, which is all the Rust of this repository needs (no
tree-sitter or syn here: a maintainer's check, not part of the build).
"""

import os
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def code_only(text):
    """The text with comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 8]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = '"' + hashes
            j = text.find(end, i + 2 + len(hashes))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            # A char literal ('a', '\n', '{'), not a lifetime ('a).
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def test_ranges(lines):
    """Line ranges of `#[cfg(test)]` items (a module or a function)."""
    ranges = []
    for k, line in enumerate(lines):
        if line.strip().startswith("#[cfg(test)]"):
            end = block_end(lines, k)
            if end is not None:
                ranges.append((k, end))
    return ranges


def block_end(lines, start):
    """The line where the first brace block opening at or after `start` closes."""
    depth, opened = 0, False
    for k in range(start, len(lines)):
        for ch in lines[k]:
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
                if opened and depth == 0:
                    return k
        if not opened and lines[k].rstrip().endswith(";"):
            return None  # a declaration without a body
    return None


def functions(path):
    with open(path, encoding="utf-8") as f:
        lines = code_only(f.read()).split("\n")
    skip = test_ranges(lines)
    for k, line in enumerate(lines):
        m = FN.match(line)
        if not m or any(a <= k <= b for a, b in skip):
            continue
        end = block_end(lines, k)
        if end is not None:
            yield m.group(7), k + 1, end - k + 1


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    found = []
    for root in ("src", "crates"):
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in ("tests", "target")]
            for name in files:
                if name.endswith(".rs"):
                    path = os.path.join(folder, name)
                    found += [(length, path, line, fn) for fn, line, length in functions(path) if length > limit]
    for length, path, line, fn in sorted(found, reverse=True):
        print(f"{length:5}  {path}:{line}  {fn}")
    print(f"{len(found)} functions over {limit} lines")


if __name__ == "__main__":
    main()
