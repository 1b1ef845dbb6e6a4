"""scikit-rebate's own test suite (issue 38), run with scikit-rebate and
with this add-on's selectors side by side: each test's cross-validated
score and whether its assertion holds.

    pip install skrebate   # 0.8.4
    python benchmarks/skrebate_suite.py [skrebate] [ours] [ours-10]

Columns: skrebate 0.8.4; ours as a skrebate user writes the test
(``ReliefFSelector(n_features_to_select=2, n_neighbors=10)``: our defaults,
numpy columns numeric); ours with skrebate's default
``discrete_threshold=10`` added (the SNPs nominal, as skrebate's tests ran).
The cases and data are ``tests/skrebate_suite.py``'s.
"""
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import skrebate_suite as suite  # noqa: E402


def cell(library, data, case):
    """'score pass|FAIL (seconds)' or the error's type and first line."""
    started = time.perf_counter()
    try:
        score = suite.score(library, data, case[0])
    except Exception as error:  # noqa: BLE001 -- a row of the table
        line = str(error).strip().splitlines()[-1][:60]
        return f"{type(error).__name__}: {line}"
    verdict = "pass" if case[5][0](score) else "FAIL"
    return f"{score:.3f} {verdict} ({time.perf_counter() - started:.1f} s)"


def main(libraries):
    warnings.filterwarnings("ignore")
    data = suite.load()
    print("| test | assertion | " + " | ".join(libraries) + " |")
    print("|---|---|" + "---|" * len(libraries))
    passed = dict.fromkeys(libraries, 0)
    for case in suite.CASES:
        cells = [cell(library, data, case) for library in libraries]
        for library, text in zip(libraries, cells):
            passed[library] += " pass " in text
        print(f"| {case[0]} | {case[5][1]} | " + " | ".join(cells) + " |",
              flush=True)
    print("| passed | | " + " | ".join(
        f"{passed[library]} of {len(suite.CASES)}" for library in libraries)
        + " |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["skrebate", "ours", "ours-10"])
