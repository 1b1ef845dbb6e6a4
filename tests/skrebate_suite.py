"""scikit-rebate's own test suite (``tests.py`` of EpistasisLab/scikit-rebate,
master 16798854) as data: every test's data set, estimator and assertion, so
that ``test_skrebate_suite.py`` runs it with this add-on's selectors and
``benchmarks/skrebate_suite.py`` with both libraries side by side.

The data are skrebate's five files (``tests/data/skrebate``), each cut to a
quarter of its rows as skrebate's suite does: ``np.random.seed(3249083)``,
then ``DataFrame.sample(frac=0.25)`` of the five files in its order.  Where
skrebate's suite is out of date: scikit-learn's ``Imputer`` is now
``SimpleImputer`` (same default, the column mean); the TuRF, VLS and Iter
tests, commented out in skrebate, are written with skrebate 0.8.4's API
(a wrapper around a ReliefF object; VLS seeded, see ``WRAPPER_OPTIONS``).
``cross_val_score`` runs its folds in this process and the forests on one
core (skrebate's ``n_jobs=-1`` there would draw the forests' randomness in
worker processes, beyond ``np.random.seed``); the selectors keep skrebate's
``n_jobs``.
"""
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.impute import SimpleImputer
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

DATA = Path(__file__).parent / "data" / "skrebate"
FILES = {  # in the order skrebate's suite samples them
    "binary": "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv.gz",
    "continuous": "GAMETES_Epistasis_2-Way_continuous_endpoint_a_20s_"
                  "1600her_0.4__maf_0.2_EDM-2_01.tsv.gz",
    "mixed": "GAMETES_Epistasis_2-Way_mixed_attribute_a_20s_1600her_0.4__"
             "maf_0.2_EDM-2_01.tsv.gz",
    "missing": "GAMETES_Epistasis_2-Way_missing_values_0.1_a_20s_1600her_"
               "0.4__maf_0.2_EDM-2_01.tsv.gz",
    "multiclass": "3Class_Datasets_Loc_2_01.txt.gz",
}
RULES = {"ReliefF": "k", "SURF": "surf", "SURFstar": "surf*",
         "MultiSURF": "multisurf", "MultiSURFstar": "multisurf*"}
SEEDS = {"ReliefF": 49082, "SURF": 240932, "SURFstar": 9238745,
         "MultiSURF": 320931, "MultiSURFstar": 320931}


def load():
    """{data name: (X, y)}: skrebate's quarter of each file."""
    state = np.random.RandomState(3249083)
    data = {}
    for name, file in FILES.items():
        frame = pd.read_csv(DATA / file, sep="\t")
        frame = frame.rename(columns={"Class": "class"}).sample(
            frac=0.25, random_state=state)
        data[name] = (frame.drop("class", axis=1).values,
                      frame["class"].values)
    return data


def _cases():
    """(test name, data, algorithm, options, wrapper, passes(score))."""
    above_07 = (lambda score: score > 0.7, "> 0.7")
    cases = []
    for algorithm in RULES:
        k = dict(n_neighbors=10) if algorithm == "ReliefF" else {}
        base = f"test_{algorithm.lower()}_pipeline"
        cases.append((base, "binary", algorithm,
                      dict(n_features_to_select=2, **k), None, above_07))
        cases.append((base + "_parallel", "binary", algorithm,
                      dict(n_features_to_select=2, n_jobs=-1, **k), None,
                      above_07))
        if algorithm == "ReliefF":
            cases.append(("test_relieffpercent_pipeline", "binary",
                          algorithm, dict(n_features_to_select=2,
                                          n_neighbors=0.1), None, above_07))
        for data in ("multiclass", "mixed", "missing"):
            cases.append((f"{base}_{data}".replace("missing",
                                                   "missing_values")
                          .replace("mixed", "mixed_attributes"),
                          data, algorithm, dict(n_features_to_select=2, **k),
                          None, above_07))
        cases.append((f"{base}_cont_endpoint", "continuous", algorithm,
                      dict(n_features_to_select=2, **k), None,
                      (lambda score: abs(score) < 0.5, "abs() < 0.5")))
    for wrapper, test, bound in (("TuRF", "turf", 0.7),
                                 ("VLS", "vlsrelief", 0.7),
                                 ("Iter", "iterrelief", 0.5)):
        for parallel in ({}, dict(n_jobs=-1)):
            name = f"test_{test}_pipeline" + ("_parallel" if parallel
                                              else "")
            cases.append((name, "binary", "ReliefF",
                          dict(n_features_to_select=2, n_neighbors=100,
                               **parallel), wrapper,
                          (lambda score, b=bound: score > b, f"> {bound}")))
    return cases


CASES = _cases()
# (skrebate's options, ours): TuRF's pct=0.5 (keep half per round) is
# remove=0.5 here; VLS gets a seed in both (random_state=None in skrebate's
# test would make the subsets, and the outcome, change from run to run)
WRAPPER_OPTIONS = {"TuRF": ({"pct": 0.5}, {"remove": 0.5}),
                   "VLS": ({"random_state": 0}, {"random_state": 0})}


def selector(library, algorithm, options, wrapper=None):
    """The selector a test builds: skrebate's class, or this add-on's
    ReliefFSelector (``neighbours`` for SURF & co.) and its TuRF, VLS and
    Iter selectors, with the same options.  ``library`` "ours-10" adds
    skrebate's default ``discrete_threshold=10`` to ours."""
    if library == "ours-10":
        options = dict(options, discrete_threshold=10)
    skrebate_options, our_options = WRAPPER_OPTIONS.get(wrapper, ({}, {}))
    if library == "skrebate":
        import skrebate
        relief = getattr(skrebate, algorithm)(**options)
        return relief if wrapper is None else \
            getattr(skrebate, {"TuRF": "TURF"}.get(wrapper, wrapper))(
                relief, **skrebate_options)
    from orangecontrib.relief import sklearn as ours
    relief = ours.ReliefFSelector(neighbours=RULES[algorithm], **options)
    return relief if wrapper is None else \
        getattr(ours, wrapper + "Selector")(relief, **our_options)


def score(library, data, name):
    """The mean 3-fold cross-validated score that test ``name`` asserts on."""
    _, data_name, algorithm, options, wrapper, _ = next(
        case for case in CASES if case[0] == name)
    X, y = data[data_name]
    np.random.seed(SEEDS[algorithm])
    forest = RandomForestRegressor if data_name == "continuous" \
        else RandomForestClassifier
    steps = [selector(library, algorithm, options, wrapper)]
    if data_name in ("multiclass", "missing"):
        steps.append(SimpleImputer())
    steps.append(forest(n_estimators=100, n_jobs=1))
    return float(np.mean(cross_val_score(make_pipeline(*steps), X, y,
                                         cv=3)))
