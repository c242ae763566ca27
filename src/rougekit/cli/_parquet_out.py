"""``--per-pair --format parquet -o FILE``: per-pair scores written as Parquet, one row group per
chunk of pairs scored (nothing kept), with the columns of the per-pair CSV (``system``,
``instance``, ``ROUGE-1_recall``, ...) and the signature in the file's key-value metadata."""

from __future__ import annotations

import numpy as np

from rougekit.cli._output import seekable_file
from rougekit.errors import InputError, OptionError
from rougekit.io.arrow import need_pyarrow
from rougekit.report.formats import pair_columns

ROWS_PER_GROUP = 65_536  # rows of a row group when the scores are already in memory


def check_options(args) -> None:
    """``--format parquet`` writes per-pair rows to a file, with pyarrow."""
    if not args.per_pair:
        raise OptionError("--format parquet writes per-pair scores: add --per-pair")
    if not args.output or args.output == "-":
        raise OptionError("--format parquet writes a binary file: give it with -o FILE")
    if not seekable_file(args.output):
        raise OptionError(
            f"--format parquet needs a regular file for -o ({args.output} is a device or a pipe: Parquet "
            "is written with seeks, its footer last)"
        )
    need_pyarrow("--format parquet")


class ParquetPairWriter:
    """Per-pair rows appended chunk by chunk to a Parquet file; :meth:`close` writes its footer.
    ``shown``: the file's name in messages (``path`` is the temporary file being written)."""

    def __init__(self, path: str, measures, signature, shown: str | None = None) -> None:
        pa = need_pyarrow("--format parquet")
        import pyarrow.parquet as pq

        self.pa, self.path = pa, path
        self._cells, names = pair_columns(measures)  # the CSV's columns
        fields = [pa.field("system", pa.string()), pa.field("instance", pa.string())]
        fields += [pa.field(n, pa.float64()) for n in names]
        metadata = {
            "rougekit.signature": str(signature),
            "rougekit.columns": "as rougekit score --per-pair --format csv",
        }
        self.schema = pa.schema(fields, metadata=metadata)
        try:
            self._writer = pq.ParquetWriter(path, self.schema)
        except OSError as exc:
            raise InputError(f"cannot write output {shown or path}: {exc.strerror or exc}") from None

    def write(self, system: str, first: int, data: np.ndarray, ids: list[str] | None = None) -> None:
        """One row group: the rows of ``data`` (n x measures x 6), instances ``ids`` or ``first``, ``first + 1``, ..."""
        pa = self.pa
        n = len(data)
        if not n:
            return
        # the arrays made from buffers: pyarrow.array() of a list or an array imports pandas (0.2 s)
        values = np.ascontiguousarray(data.reshape(n, -1)[:, self._cells].T)  # a row per column
        if ids is None:
            instances = _from(pa, pa.int64(), np.arange(first, first + n, dtype=np.int64)).cast(pa.string())
        else:
            instances = _strings(pa, ids)
        systems = _strings(pa, [system]).take(_from(pa, pa.int32(), np.zeros(n, dtype=np.int32)))
        columns = [systems, instances, *(_from(pa, pa.float64(), row) for row in values)]
        self._writer.write_table(pa.Table.from_arrays(columns, schema=self.schema))

    def write_result(self, system: str, result) -> None:
        """The per-pair rows of a :class:`~rougekit.RougeResult`, a row group at a time."""
        ids = list(result.ids)
        for start in range(0, len(result.data), ROWS_PER_GROUP):
            stop = start + ROWS_PER_GROUP
            self.write(system, start + 1, result.data[start:stop], ids[start:stop])

    def close(self) -> None:
        self._writer.close()


def _from(pa, kind, numbers: np.ndarray):
    """A pyarrow array of ``kind`` over the memory of a contiguous numpy array of that type (no nulls)."""
    return pa.Array.from_buffers(kind, len(numbers), [None, pa.py_buffer(numbers)])


def _strings(pa, texts: list[str]):
    """A pyarrow string array of ``texts`` made from their UTF-8 bytes and offsets (no pandas import)."""
    raw = [t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(raw) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, raw), dtype=np.int64, count=len(raw)), out=offsets[1:])
    if offsets[-1] > np.iinfo(np.int32).max:
        raise InputError(f"the pair IDs of {len(raw):,} rows take over 2 GiB: too long for a Parquet string column")
    buffers = [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(b"".join(raw))]
    return pa.Array.from_buffers(pa.string(), len(raw), buffers)
