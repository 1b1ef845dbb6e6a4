"""What the command line's guards cost when it reads a file: ``read_data``
(``orangecontrib/relief/io/reading.py``: the row-count check on every row,
the look at the first bytes, the columns' report) against Orange's own
``Table(file)``, on a CSV and a gzipped CSV of N rows of A numeric columns
and a class, timed turn about (best of R).

    PYTHONPATH=. python benchmarks/bench_reading.py [N] [A] [R]
"""
import gzip
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from Orange.data import Table

from orangecontrib.relief.io.reading import left_out, read_data


def best(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(n_rows=100_000, n_columns=20, repeats=3):
    rng = np.random.default_rng(0)
    X = rng.random((n_rows, n_columns)).round(4)
    header = ",".join([f"x{i}" for i in range(n_columns)] + ["class"])
    lines = [header] + [",".join(map(str, row)) + f",{'ab'[i % 2]}"
                        for i, row in enumerate(X)]
    text = "\n".join(lines) + "\n"
    print(f"{n_rows} rows x {n_columns} numeric columns + class; best of "
          f"{repeats}")
    print(f"{'file':<12} {'Table(file)':>12} {'read_data':>12} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for name in ("data.csv", "data.csv.gz"):
            path = Path(folder) / name
            content = text.encode()
            path.write_bytes(gzip.compress(content) if name.endswith(".gz")
                             else content)

            def guarded():
                data = read_data(str(path))
                left_out(data, data.table)

            orange = best(lambda: Table(str(path)), repeats)
            ours = best(guarded, repeats)
            print(f"{name:<12} {orange:>11.2f}s {ours:>11.2f}s "
                  f"{ours / orange:>7.2f}")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
