"""Reading and writing what users score: text files, JSON, CSV, Parquet and Arrow."""

#: pyarrow's memory pool for the ``rougekit`` command's reading, set by cli.main (a program that imports
#: rougekit keeps its own): jemalloc, its freed pages kept (decay off), where mimalloc (pyarrow's default)
#: took fresh pages the kernel zeroes (issue 28, the Parquet defaults on 1M pairs: peak 287-314 MB ->
#: 200-213 MB; with the decay off 128-132k page faults, not 148-175k; the same output bytes). Taken
#: once, by io.arrow.need_pyarrow.
command_arrow_pool: str | None = None
