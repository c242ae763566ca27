"""What a ROUGE-1.5.5 evaluation configuration holds (the XML file or a ``-z`` file list).

Shared by the fast reader (:mod:`rougekit.io.rouge155_config`) and the general one
(:mod:`rougekit.io._rouge155_expat`), so that neither imports the other's module for its types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INPUT_FORMATS = re.compile(r"^(SEE|ISI|SPL|SIMPLE)$", re.IGNORECASE)
TRIM = " \t\n\r\f\v"


@dataclass
class Evaluation:
    """One EVAL: a peer file per system ID and the model files, in document order."""

    eval_id: str
    input_format: str | None = None
    peer_root: str | None = None
    model_root: str | None = None
    peers: dict[str, str] = field(default_factory=dict)
    model_ids: list[str] = field(default_factory=list)
    model_files: dict[str, str] = field(default_factory=dict)
    from_list: bool = False

    def peer_path(self, peer_id: str) -> str:
        if self.from_list:
            return self.peers[peer_id]
        return f"{self.peer_root or ''}/{self.peers[peer_id]}"

    def model_paths(self) -> list[str]:
        files = self.model_files
        if self.from_list:
            return [files[m] for m in self.model_ids]
        root = self.model_root or ""
        return [f"{root}/{files[m]}" for m in self.model_ids]


@dataclass
class Config:
    """All evaluations in file order, and every peer ID seen."""

    evaluations: list[Evaluation]
    peer_ids: list[str]
