"""Websocket fan-out benchmark kit: a lean load generator and two broadcast servers.

- ``receivers``: N raw-socket websocket clients over K worker processes, with a controller API.
- ``baseline_server``: bare ``websockets`` broadcast server (the baseline).
- ``starlette_server``: the same server as a Starlette app on uvicorn, several fan-out techniques.
- ``compare``: runs them side by side and prints the table (``python -m bench.wsload.compare``).
- ``harness_cost``: what the load generator itself costs (``python -m bench.wsload.harness_cost``).
- ``selftest``: parser edge cases and a live run with pings (``python -m bench.wsload.selftest``).
- ``runner`` / ``common``: one timed run; what the two servers share (control protocol).
"""
