"""`rougekit rouge155 -w W -t 1|2` prints ROUGE-W's counts as ROUGE-1.5.5.pl does (qa21a F2).

The counts are sums of powers (model: (sum of sentence length**w)**w; peer: token count**w). Perl
holds each as an integer or a double and prints an integer in full, a double with %.15g: an integer
``**`` an integer is an exact integer unless the base is a power of two or the result needs more than
64 bits; ``+`` caches a whole double below 2**53 as an integer when the other side is one; ``int()``
(the -t 2 totals) keeps a double of 2**64 or more. rougekit printed ``1e+16`` where Perl prints
``10000000000000000`` and ``10000000000000000905969664`` where Perl prints ``1e+25``.

The expected lines were printed by ROUGE-1.5.5.pl on these files; the byte comparisons run where
the script is installed (tools/setup_reference_rouge.sh).
"""

from __future__ import annotations

import pytest
from reference_rouge import first_difference, reference_available, run_reference, run_rougekit

FILES = {
    "m10": "a b c d e f g h i j\n",  # 10 tokens: sum of lengths**4 = 10**4, then (10**4)**4 = 10**16
    "p3": "a b c\n",
    "m30": " ".join(f"w{i}" for i in range(1, 31)) + "\n",  # (30**5)**5 = 8.47e36, past 2**64
    "p30": "w1 w3 w5\n",
    "m4": "a b c d\n",  # 4**5 = 1024, a power of two: 1024**5 = 2**50 is a double to Perl
    "p4": "a c\n",
    "l1": "p3 m10\n",
    "l2": "p30 m30\n",
    "l3": "p4 m4\n",
    "l4": "p30 m30\np4 m4\n",
}

CASES = {
    # option list -> the lines Perl prints (the -t 2 total and the -d lines)
    "-x -w 5 -t 2 -z SPL l1 S": ["S ROUGE-W-5 M_count: 1e+25 P_count: 243 H_count: 243"],
    "-x -w 4 -t 2 -d -z SPL l1 S": [
        "S ROUGE-W-4 M_count: 10000000000000000 P_count: 81 H_count: 81",
        "S ROUGE-W-4 Eval 1.S R:10000000000000000 P:81 F:81",
    ],
    "-x -w 4 -t 1 -d -z SPL l1 S": ["S ROUGE-W-4 Eval 1.S R:10000000000000000 P:81 F:81"],
    "-x -w 4.0 -t 2 -d -z SPL l1 S": [  # "4.0" is a double to Perl: so is every power
        "S ROUGE-W-4.0 M_count: 10000000000000000 P_count: 81 H_count: 81",
        "S ROUGE-W-4.0 Eval 1.S R:1e+16 P:81 F:81",
    ],
    "-x -w 5.0 -t 2 -d -z SPL l2 S": [
        "S ROUGE-W-5.0 M_count: 8.47288609443e+36 P_count: 243 H_count: 3",
        "S ROUGE-W-5.0 Eval 1.S R:8.47288609443e+36 P:243 F:3",
    ],
    "-x -w 5 -t 2 -d -f B -z SPL l3 S": [  # 2**50 + 0 in the total caches it as an integer
        "S ROUGE-W-5 M_count: 1125899906842624 P_count: 32 H_count: 2",
        "S ROUGE-W-5 Eval 1.S R:1125899906842624 P:32 F:2",
    ],
    "-x -w 5 -t 2 -d -f B -z SPL l4 S": [  # a double + a double: 2**50 stays a double
        "S ROUGE-W-5 M_count: 8.47288609443e+36 P_count: 275 H_count: 5",
        "S ROUGE-W-5 Eval 1.S R:8.47288609443e+36 P:243 F:3",
        "S ROUGE-W-5 Eval 2.S R:1.12589990684262e+15 P:32 F:2",
    ],
    "-x -w 5 -t 1 -d -f B -r 10 -z SPL l4 S": [  # the bootstrap's sums cache it as an integer
        "S ROUGE-W-5 Eval 1.S R:8.47288609443e+36 P:243 F:3",
        "S ROUGE-W-5 Eval 2.S R:1125899906842624 P:32 F:2",
    ],
    "-x -w 0.5e1 -t 2 -d -z SPL l4 S": [  # an exponent form of a whole number is an integer
        "S ROUGE-W-0.5e1 M_count: 8.47288609443e+36 P_count: 275 H_count: 5",
        "S ROUGE-W-0.5e1 Eval 1.S R:8.47288609443e+36 P:243 F:3",
        "S ROUGE-W-0.5e1 Eval 2.S R:1125899906842624 P:32 F:2",
    ],
}


@pytest.fixture(scope="module")
def wdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("wcounts")
    for name, text in FILES.items():
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize("options", sorted(CASES))
def test_w_counts_printed_as_perl(options, wdir):
    rc, out, err = run_rougekit(options.split(), cwd=wdir)
    assert rc == 0, err.decode()
    lines = [line for line in out.decode().splitlines() if "_count:" in line or " Eval " in line]
    assert lines == CASES[options]


@pytest.mark.parametrize("options", sorted(CASES))
def test_w_counts_same_as_perl(options, wdir):
    ok, why = reference_available()
    if not ok:
        pytest.skip("reference ROUGE-1.5.5.pl not available: " + why)
    ref_rc, ref_out, ref_err = run_reference(options.split(), cwd=wdir)
    rc, out, err = run_rougekit(options.split(), cwd=wdir)
    assert (rc, ref_rc) == (0, 0), (ref_err, err)
    assert out == ref_out, first_difference(ref_out, out)
