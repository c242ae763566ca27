"""rougekit.score on the same pairs in each container a user may hold them in (issue 28, item 1).

    python benchmarks/bench_containers.py [PAIRS]     (default 200,000)

Synthetic pairs of 20-60 words (seeded), ROUGE-1/2/L, no bootstrap, one thread: the CPU time of the
call (best of 3) from a list of str, a pyarrow array, a pandas 3 ``str`` Series, a polars Series, a
``datasets`` Column and a numpy StringDType array, and whether each gives the list's values.
"""

import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
import datasets  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402
import pyarrow as pa  # noqa: E402

import rougekit  # noqa: E402

warnings.simplefilter("ignore")  # the words outside ASCII, on purpose

rng = random.Random(0)
words = [f"w{i}" for i in range(5000)] + "the cat sat on a mat über ça".split()
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
c = [" ".join(rng.choice(words) for _ in range(rng.randint(20, 60))) for _ in range(n)]
r = [" ".join(rng.choice(words) for _ in range(rng.randint(20, 60))) for _ in range(n)]
ds = datasets.Dataset.from_dict({"c": c, "r": r})
forms = {
    "list": (c, r),
    "pyarrow": (pa.array(c), pa.array(r)),
    "pandas str (pandas 3 default)": (pd.Series(c), pd.Series(r)),
    "polars": (pl.Series(c), pl.Series(r)),
    "datasets Column": (ds["c"], ds["r"]),
    "numpy StringDType": (np.array(c, dtype=np.dtypes.StringDType()), np.array(r, dtype=np.dtypes.StringDType())),
}
ref = None
for name, (a, b) in forms.items():
    best = 1e9
    for _ in range(3):
        t0 = time.process_time()
        res = rougekit.score(a, b, measures=["ROUGE-1", "ROUGE-2", "ROUGE-L"], bootstrap=None, jobs=1)
        v = res.values("ROUGE-L", "f")
        best = min(best, time.process_time() - t0)
    if ref is None:
        ref = v
    print(f"{name:32s} {best:6.3f} s CPU  same={np.array_equal(np.asarray(v), np.asarray(ref))}")
