"""The day forecaster: the rest of the day played hundreds of times from the live state.

Pure, like the engine (no I/O, no clock reads, randomness passed in as seeds), and built on
it only through its read side:

- ``live``: what a forecast starts from (``LiveDay``), read off a ``Tournament`` at an instant:
  the field, the stacks where counted, the structure, the clock, the histories;
- ``history``: the bust-out rate the field has shown so far, per level and per depth of the
  average stack, and what to believe about the rest of the day (a prior before any history);
- ``whatif``: one change the director asks about, applied to the day;
- ``runs``: one run of the rest of the day (a lighter model than the engine: bust-outs,
  entries and the clock, with the tables counted by the rules the engine plays by; checked
  against the engine's own runs in ``engine_check``);
- ``summary``: the 10th, 50th and 90th percentiles of everything the director asked for;
- ``truth``: what happened, for the forecasts kept at each level to be read beside;
- ``dealers``: the dealers a number of tables needs (the seam for the dealer rotation).

``jobs`` holds the entry points a worker process runs (``prepare``, ``play``, ``summarize``).
"""
