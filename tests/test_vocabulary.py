"""One vocabulary: the public names of `rougekit`, to_dict() only, one order for counts."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import rougekit


def test_dir_shows_the_public_api():
    names = dir(rougekit)
    for name in ("score", "Scorer", "RougeResult", "Measure", "Signature", "OptionError", "InputError", "__version__"):
        assert name in names and name in rougekit.__all__
    for name in rougekit.__all__:
        assert getattr(rougekit, name) is not None


def test_to_dict_only():
    import rougekit as pkg

    offenders = []
    for info in pkgutil.walk_packages(pkg.__path__, "rougekit."):
        if info.name.startswith("rougekit._core._") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == module.__name__ and hasattr(obj, "as_dict"):
                offenders.append(f"{module.__name__}.{name}")
    assert offenders == []


def test_counts_in_one_order_with_candidate_reference_names():
    # "the cat sat" against "the cat sat down": 4 reference unigrams, 3 hits, 3 candidate unigrams
    r = rougekit.score(["the cat sat"], ["the cat sat down"], measures=["ROUGE-1"], bootstrap=None)
    counts = r.counts()[0]["ROUGE-1"]
    assert list(counts.items()) == [("reference_count", 4), ("hits", 3), ("candidate_count", 3)]
    row = r.rows()[0]
    assert row["instance"] == "1"
    assert [k for k in row if k.endswith("count") or k == "hits"] == ["reference_count", "hits", "candidate_count"]
    pair = r.pairs[0]["ROUGE-1"]
    assert (pair.reference_count, pair.hits, pair.candidate_count) == (4, 3, 3)


def test_one_set_of_multi_reference_names():
    # score, compare and protocol offer exactly the engine's rules (multi_ref= of the API)
    from rougekit.cli import protocol, score
    from rougekit.engine.options import MULTI_REF

    for parser in (score.build_parser(), protocol._build_parser()):
        (action,) = [a for a in parser._actions if "--multi-ref" in a.option_strings]
        assert list(action.choices) == list(MULTI_REF)
        assert all(f"{name}:" in action.help for name in MULTI_REF)
