"""The command line: ``demo`` and ``score FILE``."""
import csv
import io
import json
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from pathlib import Path

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import DReliefF, PDReliefF, ReliefF, ReliefWarning
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.datasets import DATA_DIR, corral
from devices import needs_cuda, no_gpu, tiny  # noqa: F401

WEKA = Path(__file__).parent / "data" / "weka"


@pytest.fixture(scope="module")
def corral_table():
    return corral()


@pytest.fixture
def corral_file(tmp_path, corral_table):
    path = tmp_path / "corral.tab"
    corral_table.save(str(path))
    return str(path)


def write(path, text):
    path.write_text(text.replace("|", "\t"), encoding="utf-8")
    return str(path)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_demo_still_prints_the_corral_comparison(capsys):
    status, out, err = run(capsys, "demo", "--rows", "32")
    assert status == 0
    assert out.startswith("CorrAl, 32 instances")
    assert out.splitlines()[1].split() == ["feature", "ReliefF", "dReliefF",
                                           "pdReliefF"]
    assert "ReliefF" in out and "dReliefF" in out and "pdReliefF" in out
    assert "Separability" in out


def test_score_table_ranks_best_first(capsys, corral_file, corral_table):
    status, out, err = run(capsys, "score", corral_file)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"{ReliefF().name} on {corral_file}: 160 "
                               f"instances, "
                               f"{len(corral_table.domain.attributes)} features")
    assert "(classification); k = 10, m = 160, seed = 0" in lines[0]
    assert lines[1].split() == ["rank", "feature", "weight"]
    weights = ReliefF()(corral_table)
    names = [var.name for var in corral_table.domain.attributes]
    expected = [names[i] for i in np.argsort(-weights, kind="stable")]
    rows = [line.split() for line in lines[2:]]
    assert [row[0] for row in rows] == [str(r) for r in range(1, len(names) + 1)]
    assert [row[1] for row in rows] == expected
    assert_allclose([float(row[2]) for row in rows],
                    np.sort(weights)[::-1], atol=5e-5)


def test_score_csv_has_the_scorers_weights(capsys, corral_file, corral_table):
    status, out, _ = run(capsys, "score", corral_file, "--format", "csv",
                         "--k", "3")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    weights = dict(zip([var.name for var in corral_table.domain.attributes],
                       ReliefF(k_nearest=3)(corral_table)))
    assert {row["feature"]: float(row["weight"]) for row in rows} == weights
    column = [float(row["weight"]) for row in rows]
    assert column == sorted(column, reverse=True)


def test_score_json_passes_method_k_m_seed_and_top(capsys, corral_file,
                                                  corral_table):
    status, out, _ = run(capsys, "score", corral_file, "--method", "drelieff",
                         "--k", "4", "--m", "50", "--seed", "7", "--top", "3",
                         "--format", "json")
    assert status == 0
    rows = json.loads(out)
    weights = DReliefF(k_nearest=4, n_iterations=50,
                       random_state=7)(corral_table)
    names = [var.name for var in corral_table.domain.attributes]
    best = np.argsort(-weights, kind="stable")[:3]
    assert rows == [{"rank": r + 1, "feature": names[i], "weight": weights[i]}
                    for r, i in enumerate(best)]
    # another seed visits other instances: other dReliefF weights
    _, other, _ = run(capsys, "score", corral_file, "--method", "drelieff",
                      "--k", "4", "--m", "50", "--seed", "8", "--format",
                      "json")
    assert json.loads(other)[:3] != rows


def test_nan_weight_ranks_last_and_warning_is_one_line(capsys, tmp_path):
    path = write(tmp_path / "gaps.tab",
                 "empty|x|y|cls\n"
                 "continuous|continuous|continuous|discrete\n"
                 "|||class\n"
                 + "".join(f"?|{i % 5}|{(i * 7) % 3}|{'ab'[i % 2]}\n"
                           for i in range(20)))
    status, out, err = run(capsys, "score", path, "--format", "json",
                           "--k", "2")
    assert status == 0
    rows = json.loads(out)
    assert rows[-1] == {"rank": 3, "feature": "empty", "weight": None}
    assert err.startswith("warning: ") and "no known value" in err
    assert len(err.splitlines()) == 1


def test_numeric_class_is_scored_as_regression(capsys, tmp_path):
    path = write(tmp_path / "reg.tab",
                 "x|noise|target\n"
                 "continuous|continuous|continuous\n"
                 "||class\n"
                 + "".join(f"{i}|{(i * 37) % 11}|{2 * i + 1}\n"
                           for i in range(30)))
    status, out, _ = run(capsys, "score", path, "--k", "3")
    assert status == 0
    assert "(regression)" in out.splitlines()[0]
    assert out.splitlines()[2].split()[1] == "x"


def test_arff_file_is_read(capsys, tmp_path):
    path = write(tmp_path / "tiny.arff", """\
@relation tiny
@attribute signal {a,b}
@attribute noise numeric
@attribute class {yes,no}
@data
""" + "".join(f"{'ab'[i % 2]},{(i * 13) % 7},{['yes', 'no'][i % 2]}\n"
              for i in range(16)))
    status, out, _ = run(capsys, "score", path, "--k", "3",
                         "--format", "csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["feature"] == "signal"
    assert float(rows[0]["weight"]) == pytest.approx(1.0)


def test_progress_bar_goes_to_stderr(capsys, corral_file):
    status, out, err = run(capsys, "score", corral_file, "--progress",
                           "--format", "csv")
    assert status == 0
    assert "100%" in err and "[" in err and "%" not in out
    assert err.endswith("\n")


@pytest.mark.parametrize("argv, message", [
    (["score", "no/such/file.tab"], "not found"),
    (["score", "{dir}"], "is a folder, not a data file"),
    (["score", "{noclass}"], "has no class variable"),
    (["score", "{corral}", "--m", "1000"], "n_iterations must be"),
    (["score", "{corral}", "--class", "nope"], "has no column 'nope'; its "
                                               "columns are 'A0'"),
    (["score", "{corral}", "--T", "2"], "use it with --method pdrelieff"),
    (["score", "{corral}", "--compat", "weka", "--misses", "any"],
     "Weka has no misses='any'"),
])
def test_bad_input_is_one_line_error_with_status_2(capsys, tmp_path,
                                                   corral_file, argv, message):
    noclass = write(tmp_path / "noclass.tab", "a|b\n1|2\n3|4\n")
    argv = [arg.format(dir=tmp_path, noclass=noclass, corral=corral_file)
            for arg in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("error: ") and message in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("option", [["--k", "0"], ["--top", "-1"],
                                    ["--m", "many"], ["--method", "relief"],
                                    ["--format", "xml"], ["--sigma", "0"],
                                    ["--T", "-1"], ["--n-jobs", "0"],
                                    ["--compat", "orange"],
                                    ["--misses", "all"],
                                    ["--neighbours", "knn"],
                                    ["--turf", "1.5"], ["--turf", "0"],
                                    ["--device", "gpu"]])
def test_bad_option_values_exit_2_with_one_line(capsys, corral_file, option):
    with pytest.raises(SystemExit) as exit_info:
        main(["score", corral_file, *option])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.splitlines()) == 1


def csv_weights(out):
    return {row["feature"]: float(row["weight"])
            for row in csv.DictReader(io.StringIO(out))}


def test_class_names_the_target_column(capsys, tmp_path, corral_table):
    """The skrebate / PMLB layout: a header row, no class marked, the
    target in a column named ``class`` (here not the last one)."""
    names = [var.name for var in corral_table.domain.attributes]
    lines = ["\t".join(names[:2] + ["class"] + names[2:])]
    for row, label in zip(corral_table.X, corral_table.Y):
        values = [f"{v:g}" for v in row]
        lines.append("\t".join(values[:2] + [f"{label:g}"] + values[2:]))
    path = tmp_path / "pmlb.tsv"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "score", str(path), "--class", "class",
                         "--format", "csv")
    assert status == 0
    table = Table(str(path))
    domain = table.domain
    target = domain["class"]
    expected = ReliefF()(table.transform(Domain(
        [var for var in domain.attributes if var is not target], target)))
    assert csv_weights(out) == dict(zip(names, expected))
    # without --class the column named "class" is the class, with a note
    status, unnamed, err = run(capsys, "score", str(path), "--format", "csv")
    assert status == 0 and unnamed == out
    assert err == (f"note: {path} marks no class; its column 'class' is "
                   "taken as the class (name another with --class NAME).\n")


def test_two_columns_named_class_need_class(capsys, tmp_path):
    path = write(tmp_path / "two.tsv", "a|class|Class\n"
                 + "".join(f"{i % 3}|{i % 2}|{i % 2}\n" for i in range(12)))
    status, out, err = run(capsys, "score", path)
    assert status == 2 and out == ""
    assert err == (f"error: {path} marks no class and has columns 'class', "
                   "'Class'; name the class with --class NAME.\n")


BUNDLED = sorted(DATA_DIR.glob("*.tsv"))


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_every_bundled_file_scores(capsys, path):
    """The add-on's own data files (a header row, the class in the last
    column named "class", marked nowhere) score from the command line.
    Orange reads led24's digits and lung cancer's codes 1-3 as numbers:
    the command says so, and --categorical-class makes them classes."""
    from orangecontrib.relief import datasets
    status, out, err = run(capsys, "score", str(path), "--top", "3")
    assert status == 0, err
    assert "marks no class; its column 'class' is taken" in err
    numeric = path.name in ("led24.tsv", "lung_cancer.tsv")
    assert ("(regression)" if numeric else "(classification)") \
        in out.splitlines()[0]
    assert ("--categorical-class to score them as classes" in err) \
        == numeric
    status, out, err = run(capsys, "score", str(path), "--categorical-class",
                           "--format", "csv")
    assert status == 0 and "regression" not in err
    # where Orange reads every feature as the loader defines it (0/1 codes,
    # letters), the weights are those of the loader's table
    loader = {"corral.tsv": datasets.corral, "led24.tsv": datasets.led24,
              "promoters.tsv": datasets.promoters}.get(path.name)
    if loader is not None:
        table = loader()
        expected = ReliefF()(table)
        weights = csv_weights(out)
        assert_allclose([weights[var.name] for var in table.domain.attributes],
                        expected, rtol=0, atol=1e-12)


def test_categorical_class_of_a_marked_numeric_class(capsys, tmp_path):
    """--categorical-class turns the numbers of a class into classes, in
    increasing order, also of a file that marks the class numeric (and
    says nothing about whole numbers for a class the file marked)."""
    path = write(tmp_path / "codes.tab",
                 "x|noise|y\ncontinuous|continuous|continuous\n||class\n"
                 + "".join(f"{i % 3}|{(i * 37) % 11}|{2.5 * (i % 3)}\n"
                           for i in range(30)))
    status, out, err = run(capsys, "score", path, "--k", "3")
    assert status == 0 and err == "" and "(regression)" in out
    status, out, err = run(capsys, "score", path, "--k", "3",
                           "--categorical-class", "--format", "csv")
    assert status == 0 and err == ""
    table = Table(path)
    codes = np.round(table.Y / 2.5)
    from Orange.data import DiscreteVariable
    classes = Table.from_numpy(
        Domain(table.domain.attributes,
               DiscreteVariable("y", values=["0", "2.5", "5"])),
        table.X, codes)
    assert csv_weights(out) == dict(zip(["x", "noise"],
                                        ReliefF(k_nearest=3)(classes)))
    noclass = write(tmp_path / "noclass.tab", "a|b\n1|2\n3|4\n")
    status, _, err = run(capsys, "score", noclass, "--categorical-class")
    assert status == 2 and "--categorical-class needs one" in err


def test_class_moves_the_marked_target_to_the_features(capsys, corral_file,
                                                       corral_table):
    status, out, _ = run(capsys, "score", corral_file, "--class", "A0",
                         "--format", "csv")
    assert status == 0
    weights = csv_weights(out)
    assert "A0" not in weights and corral_table.domain.class_var.name in \
        weights


def test_every_scorer_option(capsys, corral_file, corral_table):
    names = [var.name for var in corral_table.domain.attributes]
    status, out, _ = run(capsys, "score", corral_file, "--method",
                         "pdrelieff", "--k-nearest", "4", "--n-iterations",
                         "60", "--random-state", "3", "--weight-by-distance",
                         "--sigma", "1.5", "--misses", "any", "--T", "0.7",
                         "--n-jobs", "1", "--format", "csv")
    assert status == 0
    expected = PDReliefF(k_nearest=4, n_iterations=60, random_state=3,
                         weight_by_distance=True, sigma=1.5, misses="any",
                         T=0.7, n_jobs=1)(corral_table)
    assert csv_weights(out) == dict(zip(names, expected))


@pytest.mark.parametrize("rule", ["surf", "surf*", "multisurf",
                                  "multisurf*"])
def test_neighbours_rule_gives_the_scorers_weights(capsys, corral_file,
                                                   corral_table, rule):
    names = [var.name for var in corral_table.domain.attributes]
    status, out, _ = run(capsys, "score", corral_file, "--neighbours", rule,
                         "--method", "drelieff", "--format", "csv")
    assert status == 0
    expected = DReliefF(neighbours=rule)(corral_table)
    assert csv_weights(out) == dict(zip(names, expected))
    status, out, _ = run(capsys, "score", corral_file, "--neighbours", rule)
    assert out.startswith(f"{ReliefF(neighbours=rule).name} on ")
    assert f"; neighbours = {rule}, m = 160" in out.splitlines()[0]


def test_turf_gives_the_turf_scorers_weights(capsys, corral_file,
                                             corral_table):
    from orangecontrib.relief.wrappers.turf import TuRF
    names = [var.name for var in corral_table.domain.attributes]
    status, out, _ = run(capsys, "score", corral_file, "--neighbours",
                         "multisurf", "--turf", "0.2", "--turf-rounds", "2",
                         "--format", "csv")
    assert status == 0
    expected, removed = TuRF(ReliefF(neighbours="multisurf"), remove=0.2,
                             rounds=2).score_table(corral_table)
    assert len(removed) == 2 * round(0.2 * len(names))
    assert csv_weights(out) == dict(zip(names, expected))
    status, out, _ = run(capsys, "score", corral_file, "--turf", "0.5")
    assert out.startswith(f"TuRF ({ReliefF().name}) on ")
    assert "TuRF removing 0.5 of the features per round" in out
    status, out, err = run(capsys, "score", corral_file, "--turf-rounds", "2")
    assert status == 2 and "--turf SHARE" in err


def test_turf_removing_nothing_is_one_run_not_nan(capsys, tmp_path):
    """Issue 38, item 9: on a table of few features, ``--turf 0.1``
    printed nan and exited 0 (TuRF's last round kept every feature).  Now
    it prints the TuRF scorer's weights, none of them NaN."""
    from orangecontrib.relief.wrappers.turf import TuRF
    iris = Table("iris")
    one = iris.transform(Domain(iris.domain.attributes[:1],
                                iris.domain.class_var))
    for name, data in (("one.tab", one), ("iris.tab", iris)):
        path = tmp_path / name
        data.save(str(path))
        table = Table(str(path))
        status, out, _ = run(capsys, "score", str(path), "--turf", "0.1",
                             "--format", "csv")
        assert status == 0
        weights = csv_weights(out)
        assert not np.isnan(list(weights.values())).any()
        expected, _ = TuRF(ReliefF(), remove=0.1).score_table(table)
        names = [var.name for var in table.domain.attributes]
        assert weights == dict(zip(names, expected))
    assert csv_weights(run(capsys, "score", str(tmp_path / "one.tab"),
                           "--turf", "0.1", "--format", "csv")[1]) \
        == {"sepal length": ReliefF()(Table(str(tmp_path / "one.tab")))[0]}


def test_compat_weka_gives_wekas_numbers(capsys):
    golden = (WEKA / "labor.weka.tsv").read_text().splitlines()
    header, rows = golden[0].split("\t"), dict(
        (line.split("\t")[0], line.split("\t")[1:]) for line in golden[1:])
    table = Table(str(WEKA / "labor.arff"))
    names = [var.name for var in table.domain.attributes]
    assert len(header) == len(names) + 1
    for option, argv in [("k10", []),
                         ("k3_weighted_sigma1", ["--k", "3",
                                                 "--weight-by-distance",
                                                 "--sigma", "1"]),
                         ("m20_s1", ["--m", "20", "--seed", "1"])]:
        status, out, _ = run(capsys, "score", str(WEKA / "labor.arff"),
                             "--compat", "weka", "--format", "csv", *argv)
        assert status == 0
        weights = csv_weights(out)
        assert_allclose([weights[name] for name in names],
                        np.array(rows[option], float), rtol=0, atol=1e-12)
    status, out, _ = run(capsys, "score", str(WEKA / "labor.arff"),
                         "--compat", "weka")
    assert "Weka's numbers" in out.splitlines()[0]


def test_infinite_values_in_a_file_are_missing_with_a_warning(capsys,
                                                              tmp_path):
    """Orange reads +-inf in a file as a missing value; the command line
    says so in one line."""
    rows = "".join(f"{i % 4}|{'inf' if i == 3 else (i * 7) % 5}|{'uv'[i % 2]}"
                   "\n" for i in range(12))
    path = write(tmp_path / "infinite.tab", "a|b|y\nc|c|d\n||class\n" + rows)
    status, out, err = run(capsys, "score", path, "--k", "2")
    assert status == 0
    assert err == (f"warning: {path} holds infinite values; Orange reads "
                   "them as missing values.\n")


def test_pvalues_and_stability_columns(capsys, corral_file, corral_table):
    from orangecontrib.relief import stats
    status, out, _ = run(capsys, "score", corral_file, "--pvalues",
                         "--permutations", "19", "--stability", "4",
                         "--format", "csv")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["rank", "feature", "weight", "p", "q",
                             "mean_rank", "rank_5", "rank_95", "top_k"]
    names = [var.name for var in corral_table.domain.attributes]
    test = ReliefF().significance(corral_table, n_permutations=19)
    st = ReliefF().stability(corral_table, n_resamples=4)
    for row in rows:
        i = names.index(row["feature"])
        assert float(row["p"]) == test.p_values[i]
        assert float(row["q"]) == test.q_values[i]
        assert float(row["mean_rank"]) == st.mean_rank[i]
    status, out, _ = run(capsys, "score", corral_file, "--pvalues", "--stir")
    assert "STIR's t-test" in out and "with q < 0.05" in out
    stir = stats.stir(corral_table.X, corral_table.Y, k_nearest=10)
    assert f"{stir.p_values[names.index('Irrelevant')]:.4f}" in out
    status, out, err = run(capsys, "score", corral_file, "--pvalues",
                           "--turf", "0.2")
    assert status == 2 and "--turf" in err


def test_pvalues_warn_when_no_q_can_pass(capsys, corral_file):
    """With 19 permutations no p, hence no q, is below 1/20 = 0.05: the
    command says so (and what R would do) instead of counting 0 features
    with q < 0.05 in silence; with 20 or with STIR it says nothing."""
    status, out, err = run(capsys, "score", corral_file, "--pvalues",
                           "--permutations", "19", "--top", "1")
    assert status == 0
    assert err.startswith("warning: With 19 permutations the smallest "
                          "p-value is 1/20 = 0.05")
    assert "use at least 20 permutations" in err
    assert "0 feature(s) with q < 0.05" in out
    for extra in (["--permutations", "20"], ["--stir"]):
        status, out, err = run(capsys, "score", corral_file, "--pvalues",
                               "--top", "1", *extra)
        assert status == 0 and err == ""


def test_no_negative_zero_in_any_format(capsys):
    """Weka's sums leave residues such as -2.6e-19 (promoters, p-40): the
    table prints 0.0000, not -0.0000; CSV and JSON keep every digit but
    print an exact -0.0 as 0.0."""
    from orangecontrib.relief.cli import print_ranking
    status, out, _ = run(capsys, "score", str(DATA_DIR / "promoters.tsv"),
                         "--compat", "weka")
    assert status == 0
    assert "-0.0000" not in out
    assert [line.split()[2] for line in out.splitlines()
            if " p-40 " in line] == ["0.0000"]
    weights = np.array([-0.0, -2.6e-19, 0.5])
    for format in ("table", "csv", "json"):
        print_ranking(format, "header", ["a", "b", "c"], weights, [2, 0, 1],
                      {"p": np.array([0.5, -0.0, 1.0])}, [])
        out = capsys.readouterr().out
        assert "-0.0" not in out
    assert "-2.6e-19" in out        # JSON keeps the residue's digits


def test_small_class_warning_names_the_class_values(capsys, tmp_path):
    """The command line's warning about a class not bigger than k names
    the classes by their values (yes/no) as the file writes them."""
    rows = "".join(f"{(i * 7) % 5}|{(i * 3) % 4}|{'no' if i < 5 else 'yes'}\n"
                   for i in range(14))
    path = write(tmp_path / "play.tab", "a|b|play\nc|c|d\n||class\n" + rows)
    said = ("warning: k_nearest=10 is not smaller than classes 'no' "
            "(5 instances), 'yes' (9 instances); such a class contributes "
            "all its instances.\n")
    status, out, err = run(capsys, "score", path)
    assert status == 0 and err == said
    # once, also when the p-values and the stability refit the data (not
    # again as a Python warning, which pytest would catch from stderr)
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        status, out, err = run(capsys, "score", path, "--pvalues",
                               "--permutations", "20", "--stability", "3")
    assert status == 0 and err == said
    assert [str(w.message) for w in escaped
            if issubclass(w.category, ReliefWarning)] == []


# -- --device -----------------------------------------------------------------

@pytest.fixture
def tiny_file(tmp_path):
    """20 rows x 4 features: the GPU simulator is slow (tests/devices.py)."""
    X, y, _ = tiny()
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(4)],
                    DiscreteVariable("y", ("no", "yes")))
    path = tmp_path / "tiny.tab"
    Table.from_numpy(domain, X, y).save(str(path))
    return str(path)


@needs_cuda
def test_device_cuda_prints_the_cpus_ranking_and_names_the_gpu(capsys,
                                                               tiny_file):
    status, out, err = run(capsys, "score", tiny_file, "--k", "3",
                           "--device", "cuda", "--pvalues",
                           "--permutations", "3")
    assert status == 0 and "error" not in err
    status, cpu, _ = run(capsys, "score", tiny_file, "--k", "3", "--pvalues",
                         "--permutations", "3")
    assert status == 0
    header, *rows = out.splitlines()
    assert header.endswith(f"; GPU: {cuda.device_name()}")
    assert "GPU" not in cpu.splitlines()[0]
    assert rows == cpu.splitlines()[1:]      # ranking, weights, p and q


def test_device_auto_without_a_gpu_says_so_and_runs_on_the_cpu(
        capsys, tiny_file, no_gpu):
    status, out, err = run(capsys, "score", tiny_file, "--k", "3",
                           "--device", "auto")
    assert status == 0
    assert err.count("warning: device='auto' runs on the CPU: no CUDA "
                     "GPU") == 1
    status, cpu, _ = run(capsys, "score", tiny_file, "--k", "3")
    assert out == cpu and "GPU" not in out


def test_device_errors_are_one_line_with_status_2(capsys, tiny_file, no_gpu):
    status, out, err = run(capsys, "score", tiny_file, "--device", "cuda")
    assert status == 2 and out == ""
    assert err == "error: no CUDA GPU was found (test)\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        status, out, err = run(capsys, "score", tiny_file, "--device", "cuda",
                               "--method", "irelief")
    assert status == 2 and err.startswith("error: ") \
        and "I-RELIEF runs on the CPU" in err and len(err.splitlines()) == 1


def test_device_help_says_what_cuda_needs(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--device {cpu,cuda,auto}" in text
    assert 'cuda (an NVIDIA GPU with its driver; needs pip install ' \
        '"orange3-relief[gpu]")' in text


def test_a_failed_gpu_run_is_one_line_with_status_2(capsys, tiny_file,
                                                   monkeypatch):
    """A GPU that fails during the run (its driver, numba-cuda) gives the
    CLI's one-line error; on the CPU the same exception is a bug and goes
    out as a traceback."""
    monkeypatch.setattr(cuda, "unavailable_reason", lambda: None)

    def failing(*args, **kwargs):
        raise RuntimeError("CUDA_ERROR_LAUNCH_FAILED (test)")
    monkeypatch.setattr(ReliefF, "score_table", failing)
    status, out, err = run(capsys, "score", tiny_file, "--device", "cuda")
    assert status == 2 and out == ""
    assert err == ("error: the GPU run failed: CUDA_ERROR_LAUNCH_FAILED "
                   "(test) (run with --device cpu)\n")
    with pytest.raises(RuntimeError, match="LAUNCH_FAILED"):
        main(["score", tiny_file, "--device", "cpu"])
