"""Reference cells of d2l's float32 P (PyTorch edition's PositionalEncoding), replayed in NumPy.

The torch lines
    X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
    P[:, :, 0::2] = torch.sin(X); P[:, :, 1::2] = torch.cos(X)
are mirrored op for op in float32, and a fixed sample of cells is written to textbook_d2l.csv
(the float32 value as its bits in hex, then in decimal), read by ../textbook_d2l.rs.

Rerun from the repository root (needs numpy):
    python3 crates/pe-lab-math/tests/data/textbook_d2l.py > crates/pe-lab-math/tests/data/textbook_d2l.csv
"""

import numpy as np

N = 2048
DIMS = (32, 128, 512, 1024)
ROWS = (0, 1, 2, 3, 59, 60, 511, 999, 1000, 1500, 2047)


def d2l_p(n, d):
    f32 = np.float32
    exponent = np.arange(0, d, 2, dtype=f32) / f32(d)
    divisor = np.power(f32(10000), exponent)
    x = np.arange(n, dtype=f32).reshape(-1, 1) / divisor
    assert exponent.dtype == divisor.dtype == x.dtype == f32
    p = np.zeros((n, d), dtype=f32)
    p[:, 0::2] = np.sin(x)
    p[:, 1::2] = np.cos(x)
    assert p.dtype == f32
    return p


def columns(d):
    # The first two and last two; the sine and cosine of exponent 2j/d = 1/32 (a low frequency,
    # where angles are largest); 15 more at exponents k/16, sines and cosines alternately.
    spread = {k * d // 16 + k % 2 for k in range(1, 16)}
    return sorted({0, 1, d // 32, d // 32 + 1, d - 2, d - 1} | spread)


print(f"# d2l PyTorch P in NumPy {np.__version__} float32, n = {N}; made by textbook_d2l.py")
print("d,i,column,bits,value")
for d in DIMS:
    p = d2l_p(N, d)
    for i in ROWS:
        for c in columns(d):
            v = p[i, c]
            print(f"{d},{i},{c},{int(v.view(np.uint32)):08x},{float(v)!r}")
