"""Guarded running: limits on what one hostile document may cost, worker processes, corpora.

Owns `limits` (time, memory, pages, inflated streams), `workers`
(`run_guarded`, `Guard`, `run_isolated`: processes the parent can kill)
and `corpus` (`check_record` / `check_shard` for folders, Dask or Spark).

May import: the foundation modules, `pdf`, `lang`, `judge`, `repairs`,
`report`. Never `plugin` or `generators`.
"""
