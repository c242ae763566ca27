"""Tests for the ``-s`` SMART stopword list."""

from __future__ import annotations

from pathlib import Path

import pytest

from rougekit.text.stopwords import load_smart_stopwords

DATA = Path(__file__).resolve().parents[1] / "src" / "rougekit" / "text" / "data"


def test_file_as_shipped():
    raw = (DATA / "smart_common_words.txt").read_bytes()
    lines = raw.decode("ascii").split("\n")
    assert raw.endswith(b"\n") and b"\r" not in raw
    assert len(lines) - 1 == 598  # 598 lines ...
    assert sum("'" in line for line in lines) == 48


def test_loaded_set():
    sw = load_smart_stopwords()
    assert isinstance(sw, frozenset)
    assert len(sw) == 596  # ... of which "may" and "would" appear twice
    assert load_smart_stopwords() is sw


@pytest.mark.parametrize(
    "word",
    [
        "the",
        "a",
        "z",
        "reuters",
        "ap",
        "news",
        "tech",
        "index",
        "jan",
        "dec",
        "mon",
        "sat",
        "don't",
        "it's",
        "yourselves",
        "zero",
        "have",
    ],
)
def test_members(word):
    assert word in load_smart_stopwords()


@pytest.mark.parametrize("word", ["sun", "police", "killed", "gunman", "officer", "", "The"])
def test_non_members(word):
    assert word not in load_smart_stopwords()


def test_every_single_letter():
    sw = load_smart_stopwords()
    assert all(chr(c) in sw for c in range(ord("a"), ord("z") + 1))


def test_e19_sentence():
    """Spec E19: with -s, "the police have killed the gunman" keeps police killed gunman."""
    sw = load_smart_stopwords()
    assert [t for t in "the police have killed the gunman".split() if t not in sw] == ["police", "killed", "gunman"]
    assert [t for t in "a police officer killed gunman".split() if t not in sw] == [
        "police",
        "officer",
        "killed",
        "gunman",
    ]
