"""The summary umbench summary --format csv writes, in pandas or polars.

For each configuration (the rows that agree on every configuration
column, in order of first appearance): the number of trials, the median,
minimum, maximum, standard deviation and coefficient of variation of
gbps, the medians of the time columns, and 95 % percentile-bootstrap
intervals of the median gbps and total_ms from 1,000 resamples (NumPy,
one set of resampled indices per number of trials, as umbench draws
them; empirical quantiles, as gonum's stat.Empirical). fleet/bench/
vs_pandas.sh times it against umbench and checks its medians.

usage: python summary.py pandas|polars RESULTS_CSV OUT_CSV
"""

import sys

import numpy as np

CONFIG = ["group", "benchmark", "mode", "pattern", "policy", "phase", "direction", "size_bytes",
          "footprint_bytes", "stride_elements", "page_interval_bytes", "oversub_pct", "reuse_passes",
          "platform", "gpu_uuid", "cpu_threads"]
STRINGS = ["group", "benchmark", "mode", "pattern", "policy", "phase", "direction", "platform", "gpu_uuid"]
TIMES = ["kernel_ms", "prefetch_ms", "transfer_ms", "cpu_ms", "total_ms"]
RESAMPLES, LEVEL = 1000, 0.95


def intervals(groups):
    """Bootstrap intervals of the median of each group's values (NaN left
    out): one set of resampled indices per number of values, as umbench
    draws them."""
    lo, hi = np.full(len(groups), np.nan), np.full(len(groups), np.nan)
    rng = np.random.default_rng(1)
    draws = {}
    a = (1 - LEVEL) / 2
    for i, g in enumerate(groups):
        g = g[~np.isnan(g)]
        n = len(g)
        if n < 2:
            continue
        if n not in draws:
            draws[n] = rng.integers(0, n, size=(RESAMPLES, n))
        meds = np.median(g[draws[n]], axis=1)
        lo[i], hi[i] = np.quantile(meds, [a, 1 - a], method="inverted_cdf")
    return lo, hi


def with_pandas(path):
    import pandas as pd
    df = pd.read_csv(path, dtype={c: str for c in STRINGS}, keep_default_na=False,
                     na_values={c: [""] for c in ["gbps", "oversub_pct"] + TIMES})
    g = df.groupby(CONFIG, sort=False, dropna=False)
    out = g["gbps"].agg(n="size", median_gbps="median", min_gbps="min", max_gbps="max", std_gbps="std", mean="mean")
    for t in TIMES:
        out["median_" + t] = g[t].median()
    out["cv_pct"] = 100 * out["std_gbps"] / out["mean"].abs()
    gbps, total = [], []
    for _, rows in g:
        gbps.append(rows["gbps"].to_numpy(float))
        total.append(rows["total_ms"].to_numpy(float))
    out["median_gbps_lo"], out["median_gbps_hi"] = intervals(gbps)
    out["median_total_ms_lo"], out["median_total_ms_hi"] = intervals(total)
    return out.drop(columns="mean").reset_index()


def with_polars(path):
    import polars as pl
    kinds = {c: pl.Utf8 for c in STRINGS} | {c: pl.Float64 for c in ["gbps", "oversub_pct"] + TIMES}
    df = pl.read_csv(path, schema_overrides=kinds)
    aggs = [pl.len().alias("n"), pl.col("gbps").median().alias("median_gbps"), pl.col("gbps").min().alias("min_gbps"),
            pl.col("gbps").max().alias("max_gbps"), pl.col("gbps").std().alias("std_gbps"),
            (100 * pl.col("gbps").std() / pl.col("gbps").mean().abs()).alias("cv_pct"),
            pl.col("gbps").alias("g"), pl.col("total_ms").alias("t")]
    aggs += [pl.col(t).median().alias("median_" + t) for t in TIMES]
    out = df.group_by(CONFIG, maintain_order=True).agg(aggs)
    gbps = [np.asarray(v, float) for v in out["g"].to_list()]
    total = [np.asarray(v, float) for v in out["t"].to_list()]
    lo, hi = intervals(gbps)
    tlo, thi = intervals(total)
    out = out.drop(["g", "t"]).with_columns(pl.Series("median_gbps_lo", lo), pl.Series("median_gbps_hi", hi),
                                             pl.Series("median_total_ms_lo", tlo), pl.Series("median_total_ms_hi", thi))
    return out


if __name__ == "__main__":
    engine, path, dest = sys.argv[1:4]
    if engine == "pandas":
        with_pandas(path).to_csv(dest, index=False)
    else:
        with_polars(path).write_csv(dest)
