"""The chaos soak (``bench/chaos_soak.py``): a tournament played to its winner through the HTTP
API while floor servers and the Redis server are killed and restarted, watched by many
websocket screens, then checked against the event log.

- ``screen``: one websocket screen that follows a tournament, reconnects with ``since`` and
  records what it applied as digests (optionally also folding the events into a state).
- ``watchers``: a worker process running many screens (``python -m bench.chaos.watchers``).
- ``cluster``: the embedded Valkey and the ``floor serve`` processes, killed and restarted.
- ``floorperson``: the simulated floor, sending commands over HTTP and resending on failure.
- ``verify``: the checks at the end (the log, the stored results, the replay, the screens).
- ``repro``: deterministic reproductions of what the soak found in ``floor/``
  (``python -m bench.chaos.repro [skew|last-bust|stale|load-race|pool]``).
"""
