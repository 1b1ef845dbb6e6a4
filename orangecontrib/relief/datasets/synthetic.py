"""Generators of the seed paper's artificial problems: Modulo-p-I and LED."""
import numbers

import numpy as np

from ._build import codes_to_table, make_domain, read_tsv

#: Canonical seven-segment patterns (top, upper-left, upper-right, middle,
#: lower-left, lower-right, bottom) of the digits 0-9.
LED_PATTERNS = np.array(
    [[int(bit) for bit in pattern] for pattern in (
        "1110111", "0010010", "1011101", "1011011", "0111010",
        "1101011", "1101111", "1010010", "1111111", "1111011")],
    dtype=np.int64)

LED_SEGMENTS = tuple(f"seg{i}" for i in range(1, 8))


def _check_int(name, value, minimum):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}.")
    return int(value)


def modulo(p, n_important, n_random, n_instances, random_state=0):
    """Modulo-p-I problem (seed eq. sum_mod).

    Every feature is a uniform integer in ``[0, p)``; the class is the sum of
    the ``n_important`` important features modulo ``p``.

    Parameters
    ----------
    p : int
        Number of values of each feature and of the class (>= 2).
    n_important : int
        Number of important features, named ``I1, I2, ...`` (>= 1).
    n_random : int
        Number of random features, named ``R1, R2, ...`` (>= 0).
    n_instances : int
        Number of rows (>= 1).
    random_state : int or None
        Seed for ``numpy.random.default_rng``.

    Returns
    -------
    Orange.data.Table
        Discrete features with values ``"0" .. str(p - 1)``; important ones have
        ``var.attributes["relevant"] = True``; the class is named ``class``.
    """
    p = _check_int("p", p, 2)
    n_important = _check_int("n_important", n_important, 1)
    n_random = _check_int("n_random", n_random, 0)
    n_instances = _check_int("n_instances", n_instances, 1)
    rng = np.random.default_rng(random_state)
    X = rng.integers(0, p, size=(n_instances, n_important + n_random))
    y = X[:, :n_important].sum(axis=1) % p
    names = [f"I{i}" for i in range(1, n_important + 1)] \
        + [f"R{i}" for i in range(1, n_random + 1)]
    domain = make_domain(names, [range(p)] * len(names), set(names[:n_important]), range(p))
    return codes_to_table(domain, X, y, name=f"Modulo-{p}-{n_important}")


def led(n_irrelevant=17, n_instances=3200, noise=0.1, random_state=0):
    """LED display problem (Breiman et al. 1984; LED24 has 17 irrelevant bits).

    The digit is drawn uniformly from 0-9; its seven canonical segment bits
    (``seg1..seg7``: top, upper-left, upper-right, middle, lower-left,
    lower-right, bottom) are each flipped independently with probability
    ``noise``; then ``n_irrelevant`` fair coin bits ``irr1, irr2, ...`` follow.

    Parameters
    ----------
    n_irrelevant : int
        Number of irrelevant bits (>= 0).
    n_instances : int
        Number of rows (>= 1).
    noise : float
        Flip probability of each segment bit, in [0, 1].
    random_state : int or None
        Seed for ``numpy.random.default_rng``.

    Returns
    -------
    Orange.data.Table
        Binary features (``"0"``, ``"1"``), segments marked relevant, class
        ``class`` with values ``"0" .. "9"``.
    """
    n_irrelevant = _check_int("n_irrelevant", n_irrelevant, 0)
    n_instances = _check_int("n_instances", n_instances, 1)
    if not isinstance(noise, numbers.Real) or not 0 <= noise <= 1:
        raise ValueError(f"noise is a probability: give a number in [0, 1], not {noise!r}.")
    rng = np.random.default_rng(random_state)
    digits = rng.integers(0, 10, size=n_instances)
    flips = rng.random((n_instances, 7)) < noise
    segments = LED_PATTERNS[digits] ^ flips
    irrelevant = rng.integers(0, 2, size=(n_instances, n_irrelevant))
    return _led_table(np.hstack([segments, irrelevant]), digits, n_irrelevant,
                      f"LED{7 + n_irrelevant}")


def _led_table(X, digits, n_irrelevant, name):
    names = list(LED_SEGMENTS) + [f"irr{i}" for i in range(1, n_irrelevant + 1)]
    domain = make_domain(names, [(0, 1)] * len(names), set(LED_SEGMENTS), range(10))
    return codes_to_table(domain, X, digits, name=name)


def led24():
    """The bundled LED24 table (PMLB ``led24``, 3200 rows): see :func:`led`."""
    header, matrix = read_tsv("led24.tsv")
    assert header[:7] == list(LED_SEGMENTS) and header[-1] == "class"
    return _led_table(matrix[:, :-1], matrix[:, -1], len(header) - 8, "LED24")


def confounded(n_instances=400, n_real=2, n_confounded=2, n_irrelevant=46,
               confounding=2.0, effect=1.0, noise=0.5, regression=False,
               random_state=0):
    """A covariate that drives both the target and some features, which have
    no effect of their own: the confounded benchmark of NPDR's adjustment
    (``stats.npdr(..., covariates=...)``; doc/statistics.md).

    ``age`` ~ N(0, 1) is the covariate.  The features are independent
    N(0, 1) draws, except the confounded ones, ``conf_i = age + noise *
    N(0, 1)``.  The target depends on ``age`` and on the real features only:

        eta = confounding * age + effect * (real1 + ... + real_r)

    a class drawn as Bernoulli(1 / (1 + exp(-eta))), or, with
    ``regression``, the number ``eta + N(0, 1)``.  So the confounded
    features are related to the target only through ``age``: adjusted for
    it they are irrelevant.

    Parameters
    ----------
    n_instances : int
        Number of rows (>= 10).
    n_real, n_confounded, n_irrelevant : int
        Numbers of real features ``real1, ...`` (>= 1), confounded ones
        ``conf1, ...`` and irrelevant ones ``noise1, ...`` (>= 0).
    confounding, effect : float
        The covariate's and each real feature's coefficient in eta.
    noise : float
        The spread of a confounded feature around ``age`` (> 0).
    regression : bool
        A numeric target instead of a class.
    random_state : int or None
        Seed for ``numpy.random.default_rng``.

    Returns
    -------
    Orange.data.Table
        Numeric attributes ``age`` (``attributes["covariate"] = True``),
        the real features (``relevant = True``), the confounded ones
        (``relevant = False``, ``attributes["confounded"] = True``) and the
        irrelevant ones, and the target ``class`` (values ``"0"``, ``"1"``,
        or numeric).
    """
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, \
        Table
    n_instances = _check_int("n_instances", n_instances, 10)
    n_real = _check_int("n_real", n_real, 1)
    n_confounded = _check_int("n_confounded", n_confounded, 0)
    n_irrelevant = _check_int("n_irrelevant", n_irrelevant, 0)
    for name, value in (("confounding", confounding), ("effect", effect)):
        if not isinstance(value, numbers.Real) or not np.isfinite(value):
            raise ValueError(f"{name} must be a finite number, not "
                             f"{value!r}.")
    if not isinstance(noise, numbers.Real) or not noise > 0:
        raise ValueError(f"noise must be a positive number, not {noise!r}.")
    rng = np.random.default_rng(random_state)
    age = rng.standard_normal(n_instances)
    real = rng.standard_normal((n_instances, n_real))
    conf = age[:, None] + noise * rng.standard_normal(
        (n_instances, n_confounded))
    other = rng.standard_normal((n_instances, n_irrelevant))
    eta = confounding * age + effect * real.sum(axis=1)
    if regression:
        y = eta + rng.standard_normal(n_instances)
        class_var = ContinuousVariable("class")
    else:
        y = (rng.random(n_instances) < 1 / (1 + np.exp(-eta))).astype(float)
        class_var = DiscreteVariable("class", values=["0", "1"])

    def variable(name, relevant=False, **flags):
        var = ContinuousVariable(name)
        var.attributes["relevant"] = relevant
        var.attributes.update(flags)
        return var
    attributes = [variable("age", covariate=True)] \
        + [variable(f"real{i}", True) for i in range(1, n_real + 1)] \
        + [variable(f"conf{i}", confounded=True)
           for i in range(1, n_confounded + 1)] \
        + [variable(f"noise{i}") for i in range(1, n_irrelevant + 1)]
    table = Table.from_numpy(Domain(attributes, class_var),
                             np.column_stack([age, real, conf, other]), y)
    table.name = "Confounded"
    return table
