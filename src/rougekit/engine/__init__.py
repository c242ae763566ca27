"""The engine: the backend switch, scoring options and the planner that picks the scoring path.

Front ends (``rougekit.api``, ``rougekit.rouge155``, ``rougekit.compat``, ``rougekit.process``,
``rougekit.explanation``, ``rougekit.variants``, the command line) describe what they want with
:class:`~rougekit.engine.options.ScoringOptions` (or measures and text options) and ask the one
door, :func:`rougekit.engine.door.plan`, for the path; none of them imports the planner, a
kernel or the counting functions, nor reads the environment.
"""
