"""Time of runs whose cost once grew with a code or an option, not the data
(issue 38, items 7 and 8): class codes {0, 1, C} with missing values
(RELIEF-D's class tables were (C + 1)^2: 242 s for C = 3000, a MemoryError
for 10^9) and k_nearest = 10^12 (np.ones(k): "Unable to allocate 7.28
TiB").  Prints each time and whether the weights equal those of {0, 1, 2}.

    PYTHONPATH=. python benchmarks/hostile_sizes.py
"""
import time
import warnings

import numpy as np

from orangecontrib.relief import relieff


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def main():
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    X = rng.random((150, 4))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = np.repeat([0.0, 1.0, 2.0], 50)
    for compat in (None, "weka"):
        relieff(X, y, compat=compat)            # (compiles on first use)
    print("| largest class code | compat | time | weights of {0, 1, 2} |")
    print("|---|---|---|---|")
    for code in (2, 3000, 20000, 10 ** 9):
        for compat in (None, "weka"):
            expected = relieff(X, y, compat=compat).weights
            result, seconds = timed(lambda: relieff(
                X, np.where(y == 2, code, y), compat=compat))
            print(f"| {code} | {compat} | {seconds * 1000:.1f} ms | "
                  f"{np.array_equal(result.weights, expected)} |")
    _, seconds = timed(lambda: relieff(X, y, k_nearest=10 ** 12))
    print(f"\nk_nearest=10**12 on 150 rows: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
