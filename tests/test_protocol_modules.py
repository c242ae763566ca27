"""meta/protocol.py is split by job (issue 24, item 5); its public names stay where they were.

Every name is the very object of the module that does the job, so the two import paths cannot
drift apart, and no module of the protocol holds more than one job's worth of code.
"""

from __future__ import annotations

from pathlib import Path

import rougekit.meta.protocol as protocol
import rougekit.meta.protocol_data as data
import rougekit.meta.protocol_format as fmt
import rougekit.meta.protocol_grid as grid
import rougekit.meta.protocol_result as result

HOMES = {
    data: (
        "ProtocolDataset",
        "LOADERS",
        "load_dataset",
        "load_jsonl",
        "load_realsumm",
        "load_summeval",
        "split_tokenized",
    ),
    grid: ("DEFAULT_MEASURES", "DEFAULT_VARIANTS", "REFS", "RULES", "SCORES", "VARIANTS", "score_grid"),
    result: ("ProtocolCell", "ProtocolResult"),
    fmt: ("CSV_FIELDS", "format_csv", "format_json", "format_text"),
}


def test_every_public_name_is_the_job_modules_object():
    for module, names in HOMES.items():
        for name in names:
            assert getattr(protocol, name) is getattr(module, name), (module.__name__, name)
    moved = {n for names in HOMES.values() for n in names}
    assert set(protocol.__all__) - moved == {"run_protocol"}


def test_classes_and_functions_are_defined_in_their_job_module():
    for module, names in HOMES.items():
        for name in names:
            obj = getattr(module, name)
            if callable(obj):
                assert obj.__module__ == module.__name__, name


def test_no_protocol_module_is_over_400_lines():
    for module in (protocol, data, grid, result, fmt):
        lines = Path(module.__file__).read_text(encoding="utf-8").count("\n")
        assert lines <= 400, (module.__name__, lines)
