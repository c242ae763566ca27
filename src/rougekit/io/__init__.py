"""Reading and writing what users score: text files, JSON, CSV, Parquet and Arrow."""

#: pyarrow's memory pool for the ``rougekit`` command's reading, set by cli.main (a program that imports
#: rougekit keeps its own): jemalloc reuses a Parquet reader's freed buffers, where mimalloc (pyarrow's
#: default) takes fresh pages the kernel zeroes (issue 28: the Parquet defaults on 1M pairs 0.15-0.2 s
#: faster, 0.2 s less system CPU, 85 MB lower peak). Taken once, by io.arrow.need_pyarrow.
command_arrow_pool: str | None = None
