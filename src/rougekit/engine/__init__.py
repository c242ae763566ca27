"""The engine: the backend switch, scoring options and the planner that picks the scoring path.

Front ends (``rougekit.api``, ``rougekit.rouge155``, ``rougekit.compat``, the command line)
describe what they want with :class:`~rougekit.engine.options.ScoringOptions` and ask
:mod:`rougekit.engine.planner` for the path; none of them imports a kernel or reads the
environment.
"""
