#!/usr/bin/env python3
"""Statistics the analysis tools share, one implementation each, on SciPy: Student's t
quantile (scipy.stats.t, not a table), and 95 % intervals that stay in the domain of what
they bound:

    t_interval          mean +- t(0.975, n - 1) s / sqrt(n): a mean of an unbounded quantity
    t_cut_interval      the t interval intersected with the quantity's domain: a mean of
                        replicates of a quantity bounded to [0, 1] or >= 0; the true mean
                        lies in the domain, so the cut removes only impossible values and
                        the interval keeps the t interval's coverage
    bootstrap_interval  percentile bootstrap of the mean (scipy.stats.bootstrap, seeded:
                        the same values give the same interval); every resampled mean is a
                        mean of the values, so the interval lies within [min, max] of the
                        values. Not a default: it under-covers (below)
    wilson_interval     Wilson's score interval of a proportion k / n from its counts
                        (Wilson 1927, "Probable inference, the law of succession, and
                        statistical inference"): within [0, 1], and not empty at k = 0 or n
    mean_interval       which of these a mean of replicates gets, by the domain of its
                        quantity, the number of replicates (and the counts, where known):
                        INTERVALS names them

Before this module, sweep.py and discovery_tables.py each tabulated t(0.975, df) and the two
disagreed above 30 degrees of freedom (at df = 35: 2.030 against 2.042; the exact value is
2.0301). A t interval of a rate leaves [0, 1] easily (two seeds 0.1 and 0.9: -4.6 to 5.6),
hence intervals in the domain for bounded quantities: the t interval cut at the domain. The
percentile bootstrap, the other interval that stays in the domain, is short of 95 % at every
number of replicates measured (BOOTSTRAP_COVERAGE); sweep.py offers it as --band bootstrap,
never as its 95 % CI.
"""

import math
import statistics
import warnings

#: Confidence level of every interval here.
LEVEL = 0.95
#: Resamples of bootstrap_interval (the percentiles move by about 0.1 % of the values'
#: spread between seeds at this count) and its fixed seed.
BOOTSTRAP_RESAMPLES = 9999
BOOTSTRAP_SEED = 20240229

#: The fewest replicates of a bounded quantity whose mean gets the percentile bootstrap;
#: How often the percentile bootstrap and the t interval cut at [0, 1] hold the mean of n
#: replicates drawn from Beta(3, 7) (a rate of mean 0.3), measured by Monte Carlo (400,000
#: draws for t, 20,000 for the bootstrap at n = 2 to 10; 2,000 each at 20 and 30): the
#: bootstrap takes the spread of the resampled means, narrower than the mean's by
#: sqrt((n - 1) / n), and in effect a normal quantile where Student's t belongs (1.96
#: against t(0.975, n - 1): 12.7 at n = 2, 2.26 at n = 10), so it falls short at every n
#: (two values: at most their range), and on a rate piled up near 0 (Beta(0.5, 3)) too
#: (0.46 to 0.87 at n = 2 to 10, against 0.85 to 0.90 for t). {n: (bootstrap, t cut)}:
BOOTSTRAP_COVERAGE = {2: (0.50, 0.945), 3: (0.74, 0.941), 5: (0.83, 0.941),
                      10: (0.90, 0.944), 20: (0.915, 0.944), 30: (0.934, 0.947)}

#: The name of each interval, as the tables print it.
INTERVALS = {"t": "t95", "t_cut": "t95_cut", "bootstrap": "bootstrap95",
             "wilson": "wilson95"}


def _scipy_stats():
    """scipy.stats, imported at its first use (so is NumPy, in bootstrap_interval): the
    imports take most of a second, which every start of sweep.py (run, status, collect:
    none of them needs them) and of the scripts that import this module would otherwise
    pay."""
    import scipy.stats

    return scipy.stats


def t_quantile(p, df):
    """The p quantile of Student's t with df degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError("no t quantile for %s degrees of freedom" % df)
    if not 0 < p < 1:
        raise ValueError("no t quantile at p = %s (0 < p < 1)" % p)
    return float(_scipy_stats().t.ppf(p, df))


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


def t_cut_interval(values, domain):
    """(low, high) of the 95 % t interval of the mean intersected with `domain` ((low,
    high), None for no bound): each end moved into the domain (NaN, NaN if n < 2). The
    true mean of a quantity lies in its domain, so the cut drops only values it cannot
    take, and the interval covers the mean as often as the t interval does."""
    low, high = t_interval(values)
    lo, hi = domain
    if lo is not None:
        low, high = max(low, lo), max(high, lo)
    if hi is not None:
        low, high = min(low, hi), min(high, hi)
    return low, high


def bootstrap_interval(values, seed=BOOTSTRAP_SEED, resamples=BOOTSTRAP_RESAMPLES):
    """(low, high) of the 95 % percentile bootstrap interval of the mean (Efron and
    Tibshirani 1993, "An Introduction to the Bootstrap", ch. 13): the 2.5 and 97.5
    percentiles of the means of `resamples` resamples drawn with replacement, from a
    generator seeded with `seed` (deterministic). Within [min, max] of the values, so in
    any interval domain that holds them. (NaN, NaN) if n < 2. It is too narrow for its level
    (two values: their range at most, which holds the mean about half of the time; see
    BOOTSTRAP_COVERAGE), hence not mean_interval's choice."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float("nan"), float("nan")
    low, high = float(values.min()), float(values.max())
    if low == high:
        return low, high
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's note on a degenerate resample
        res = _scipy_stats().bootstrap((values,), np.mean, confidence_level=LEVEL,
                                       n_resamples=resamples, method="percentile",
                                       vectorized=True,
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
    z = float(_scipy_stats().norm.ppf(0.5 + LEVEL / 2))
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
        Student's t interval cut at the domain (t95_cut; so named whether or not the cut
        moved an end);
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
        low, high = t_cut_interval(values, domain)
        return n, mean, low, high, INTERVALS["t_cut"]
    low, high = t_interval(values)
    return n, mean, low, high, INTERVALS["t"]
