"""variants: a ROUGE-1.5.5.pl command with -t 2 says that the script prints counts there (qa21a F5)."""

from __future__ import annotations

import pytest

from rougekit.variants.commands import command_of
from rougekit.variants.space import Settings

NOTE = "[-t 2 prints the counts M_count, P_count, H_count, no R/P/F: R = H_count/M_count, P = H_count/P_count]"


@pytest.mark.parametrize("stemmer", ["porter+wordnet", "porter"])
def test_t2_command_says_it_prints_counts(stemmer):
    line = command_of(Settings(aggregation="tokens", stemmer=stemmer), ["ROUGE-1", "ROUGE-2"])
    perl = line.split("; or: ")[0]
    assert perl.startswith("ROUGE-1.5.5.pl ") and " -t 2 -a config.xml" in perl and perl.endswith(NOTE)


@pytest.mark.parametrize("aggregation", ["rouge155-average", "rouge155-token-average", "mean"])
def test_other_commands_have_no_t2_note(aggregation):
    assert "prints the counts" not in command_of(Settings(aggregation=aggregation), ["ROUGE-1"])
