"""rougekit.text.stem_bn against the Bengali stemmer of multilingual-rouge 0.0.1, given the rules file.

The package's wheel has the stemmer's code but not its rules file; the tests hand it the file
rougekit ships (data/bengali-stemmer-rules.txt, BanglaKit's common.rules) and compare word by word.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from rougekit.text import stem_bn

parser = pytest.importorskip(
    "multilingual_rouge.bengali_stemmer.parser", reason="multilingual-rouge==0.0.1 (test extra)"
)

RULES = (Path(stem_bn.__file__).parent / "data" / stem_bn.RULES_FILE).read_text(encoding="utf-8")
PAIRS = json.loads((Path(__file__).parent / "data" / "multilingual_pairs.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def theirs():
    return parser.RafiStemmer(io.StringIO(RULES))


def _words() -> list[str]:
    """Real words, and stems of them glued to every suffix of the rules (so every rule fires)."""
    real = sorted({w for pair in PAIRS["bengali"] for text in pair for w in text.split()})
    suffixes = [s for group in stem_bn.rules().groups for s in group]
    rng = random.Random(3)
    made = [rng.choice(real)[: rng.randint(0, 4)] + rng.choice(suffixes) for _ in range(5000)]
    vowel_signs = "".join(sorted(stem_bn.VOWEL_SIGNS))
    made += [rng.choice(vowel_signs) * rng.randint(0, 2) + s for s in suffixes]  # remainders of vowel signs only
    return real + made + ["", ".", "ে.েছিলেন", "হে.েছিলেন", "abc"]


def test_rules_read_as_the_package_reads_them(theirs):
    ours = stem_bn.rules()
    assert [list(g) for g in ours.groups] == theirs.groups and ours.replacements == theirs.replace_rules
    assert len(ours.groups) == 4 and len(ours.replacements) == 7  # the file's 7 "->" lines


def test_stems_equal_the_package(theirs):
    words = _words()
    changed = 0
    for word in words:
        assert stem_bn.stemmer(word) == theirs.stem_word(word), word
        changed += stem_bn.stemmer(word) != word
    assert changed > len(words) // 2  # the comparison exercised the rules, not only untouched words


def test_hand_checked_examples():
    assert stem_bn.stemmer("আমাকে") == "আমা"  # group 2 cuts "কে"
    assert stem_bn.stemmer("করছ") == "কর"  # "রছ -> র" overwrites from where the suffix starts
    # "ে.েছিলেন -> া.": the rule's dot is a literal character of the suffix, the replacement's keeps
    assert stem_bn.stemmer("হে.েছিলেন") == "হা." and stem_bn.stemmer("নেচে") == "নেচ"
    # group 2 does not cut "কে" when only a vowel sign (ো) would remain; a later group cuts "ে"
    assert stem_bn.stemmer("োকে") == "োক"


def test_rules_parsing_edge_cases():
    text = "x -> y\n{\n  ab  # comment\n a->b->c\n c -> \n}\nzz\n{\nq"
    rules = stem_bn.Rules(text)
    assert rules.groups == [("ab", "c"), ("q",)] and rules.replacements == {"x": "y"}
    package = parser.RafiStemmer(io.StringIO(text))
    assert package.groups == [["ab", "c"], ["q"]] and package.replace_rules == {"x": "y"}
    with pytest.raises(ValueError, match="longer"):
        stem_bn.Rules("{\na -> bc\n}")


def test_rules_file_is_the_one_provenance_names():
    import hashlib

    data = Path(stem_bn.__file__).parent / "data"
    digest = hashlib.sha256((data / stem_bn.RULES_FILE).read_bytes()).hexdigest()
    provenance = (data / "PROVENANCE.md").read_text(encoding="utf-8")
    assert f"## `{stem_bn.RULES_FILE}`" in provenance and digest in provenance
