#!/usr/bin/env python3
"""Statistics the analysis tools share, one implementation each, on SciPy: Student's t
quantile (scipy.stats.t, not a table), and 95 % intervals that stay in the domain of what
they bound:

    t_interval          mean +- t(0.975, n - 1) s / sqrt(n): a mean of an unbounded quantity
    bootstrap_interval  percentile bootstrap of the mean (scipy.stats.bootstrap, seeded:
                        the same values give the same interval): a mean of a quantity
                        bounded to [0, 1] or >= 0; every resampled mean is a mean of the
                        values, so the interval lies within [min, max] of the values
    wilson_interval     Wilson's score interval of a proportion k / n from its counts
                        (Wilson 1927, "Probable inference, the law of succession, and
                        statistical inference"): within [0, 1], and not empty at k = 0 or n
    mean_interval       which of the three a mean of replicates gets, by the domain of its
                        quantity (and its counts, where known): INTERVALS names them

Before this module, sweep.py and discovery_tables.py each tabulated t(0.975, df) and the two
disagreed above 30 degrees of freedom (at df = 35: 2.030 against 2.042; the exact value is
2.0301). A t interval of a rate leaves [0, 1] easily (two seeds 0.1 and 0.9: -4.5 to 5.5),
hence the bootstrap and Wilson intervals for bounded quantities.
"""

import math
import statistics
import warnings

import numpy as np
from scipy.stats import bootstrap as _bootstrap
from scipy.stats import norm as _normal
from scipy.stats import t as _student_t

#: Confidence level of every interval here.
LEVEL = 0.95
#: Resamples of bootstrap_interval (the percentiles move by about 0.1 % of the values'
#: spread between seeds at this count) and its fixed seed.
BOOTSTRAP_RESAMPLES = 9999
BOOTSTRAP_SEED = 20240229

#: The name of each interval, as the tables print it.
INTERVALS = {"t": "t95", "bootstrap": "bootstrap95", "wilson": "wilson95"}


def t_quantile(p, df):
    """The p quantile of Student's t with df degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError("no t quantile for %s degrees of freedom" % df)
    if not 0 < p < 1:
        raise ValueError("no t quantile at p = %s (0 < p < 1)" % p)
    return float(_student_t.ppf(p, df))


def t975(df):
    """t(0.975, df): the two-sided 95 % quantile."""
    return t_quantile(0.975, df)


def mean_ci(values):
    """(n, mean, half-width of the 95 % t-interval of the mean; NaN if n < 2)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return n, mean, float("nan")
    return n, mean, t975(n - 1) * statistics.stdev(values) / math.sqrt(n)


def t_interval(values):
    """(low, high) of the 95 % t-interval of the mean (NaN, NaN if n < 2)."""
    n, mean, half = mean_ci(values)
    return mean - half, mean + half


def bootstrap_interval(values, seed=BOOTSTRAP_SEED, resamples=BOOTSTRAP_RESAMPLES):
    """(low, high) of the 95 % percentile bootstrap interval of the mean (Efron and
    Tibshirani 1993, "An Introduction to the Bootstrap", ch. 13): the 2.5 and 97.5
    percentiles of the means of `resamples` resamples drawn with replacement, from a
    generator seeded with `seed` (deterministic). Within [min, max] of the values, so in
    any interval domain that holds them. (NaN, NaN) if n < 2. With few values it is narrow
    (two values: their range at most), which is what two replicates can tell."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float("nan"), float("nan")
    low, high = float(values.min()), float(values.max())
    if low == high:
        return low, high
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's note on a degenerate resample
        res = _bootstrap((values,), np.mean, confidence_level=LEVEL, n_resamples=resamples,
                         method="percentile", vectorized=True,
                         random_state=np.random.default_rng(seed))
    ci = res.confidence_interval
    # Rounding alone could put a resampled mean a last bit past the values' extremes.
    return min(max(float(ci.low), low), high), min(max(float(ci.high), low), high)


def wilson_interval(successes, trials):
    """(low, high) of Wilson's 95 % score interval of the proportion successes / trials
    (NaN, NaN without trials); within [0, 1]."""
    if trials <= 0:
        return float("nan"), float("nan")
    if not 0 <= successes <= trials:
        raise ValueError("no proportion of %s in %s trials" % (successes, trials))
    z = float(_normal.ppf(0.5 + LEVEL / 2))
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bounded(domain):
    """Whether a domain (low, high; None = unbounded) has a bound."""
    return domain[0] is not None or domain[1] is not None


def mean_interval(values, domain, counts=None):
    """(n, mean, low, high, name) of the replicates `values` of a quantity whose domain is
    `domain` ((low, high), None for no bound): the 95 % interval of their mean, in the
    domain, and its name (INTERVALS):

      - one replicate whose counts (successes, trials) are known (`counts`, one pair per
        value): Wilson's interval of its proportion (wilson95);
      - a bounded quantity (a rate in [0, 1], a count, an energy or a time >= 0), n >= 2:
        the percentile bootstrap of the mean (bootstrap95);
      - an unbounded quantity, n >= 2: Student's t (t95);
      - otherwise no interval: low = high = NaN, name "".
    """
    values = [float(v) for v in values]
    n = len(values)
    mean = sum(values) / n
    nan = float("nan")
    if n == 1 and counts and counts[0] is not None and counts[0][1] > 0:
        low, high = wilson_interval(*counts[0])
        return n, mean, low, high, INTERVALS["wilson"]
    if n < 2:
        return n, mean, nan, nan, ""
    if bounded(domain):
        low, high = bootstrap_interval(values)
        return n, mean, low, high, INTERVALS["bootstrap"]
    low, high = t_interval(values)
    return n, mean, low, high, INTERVALS["t"]
