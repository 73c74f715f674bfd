#!/usr/bin/env python3
"""Statistics the analysis tools share, one implementation each: Student's t quantile (SciPy's
scipy.stats.t, not a table) and the t-interval of a mean.

Before this module, sweep.py and discovery_tables.py each tabulated t(0.975, df) and the two
disagreed above 30 degrees of freedom (at df = 35: 2.030 against 2.042; the exact value is
2.0301).
"""

import math
import statistics

from scipy.stats import t as _student_t


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
