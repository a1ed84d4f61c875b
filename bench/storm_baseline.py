"""The baseline of ``bench/storm.py``: a bare server sending a storm's screens the same bytes.

``websockets`` on uvloop (as ``bench/wsload/baseline_server.py``), nothing else: an HTTP
``GET`` under ``/api/`` is answered with the snapshot floor sent (the same gzipped bytes and
headers, ``Floor-Seq`` included), and a websocket is sent floor's ``hello`` and then
catch-up frames of the sizes floor's screens were sent: ``--connect`` sizes for a screen
coming from the HTTP snapshot's number, ``--reconnect`` sizes for one coming back later.
No state, no rules, no Redis: what is left is the cost of the sockets and the bytes.

With ``--follow`` (``bench/storm.py --follow``) a websocket under ``/follow/`` is a follower:
it is sent floor's follow ``hello`` and then the very ``follow`` message floor sent that
receiver (told by its loopback address, ``storm_clients.screen_index``), the k-th
connection from an address the message of floor's k-th round.

    python -m bench.storm_baseline --port 8766 --cpu 0 --body snap.gz --hello hello.json \\
        --seq 10002 --connect 3000,2500 --reconnect 1800 [--follow follow.pickle]
"""

from __future__ import annotations

import argparse
import contextlib
import pickle
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import uvloop
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from bench.storm_clients import screen_index
from bench.wsload.common import setup_process


def catch_up(tid: str, since: int, sizes: list[int]) -> list[bytes]:
    """Event frames numbered from ``since + 1``, each padded to a size floor sent."""
    out = []
    for k, size in enumerate(sizes, start=1):
        head = f'{{"type":"events","tournament":"{tid}","from":{since + k},"to":{since + k},'
        body = head.encode() + b'"pad":"'
        out.append(body + b"x" * max(0, size - len(body) - 2) + b'"}')
    return out


async def main(
    args: argparse.Namespace, body: bytes, hello: bytes, follow: dict[str, Any] | None
) -> None:
    sizes = {
        "connect": [int(x) for x in args.connect.split(",") if x],
        "reconnect": [int(x) for x in args.reconnect.split(",") if x],
    }
    headers = Headers(
        {
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            "Vary": "Accept-Encoding",
            "Cache-Control": "no-store",
            "Floor-Seq": str(args.seq),
            "Content-Length": str(len(body)),
        }
    )

    def process_request(connection: ServerConnection, request: Request) -> Response | None:
        if request.path.startswith("/api/"):
            return Response(200, "OK", headers.copy(), body)
        return None

    #: Followers' connections so far, by source address.
    seen: Counter[str] = Counter()

    async def follower(ws: ServerConnection) -> None:
        assert follow is not None
        address = ws.remote_address[0]
        rounds: list[list[bytes | None]] = follow["rounds"]
        k = min(seen[address], len(rounds) - 1)
        seen[address] += 1
        i = screen_index(address)
        sent = rounds[k][i] if i < len(rounds[k]) else None
        await ws.send(follow["hello"], text=False)
        await ws.send(sent if sent is not None else follow["sample"], text=False)
        await ws.wait_closed()

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        if follow is not None and "/follow/" in ws.request.path:
            await follower(ws)
            return
        query = parse_qs(urlsplit(ws.request.path).query)
        since = int(query.get("since", ["0"])[0])
        await ws.send(hello, text=False)
        round_ = "connect" if since <= args.seq else "reconnect"
        for frame in catch_up(args.tid, since, sizes[round_]):
            await ws.send(frame, text=False)
        await ws.wait_closed()

    async with serve(
        handler,
        args.host,
        args.port,
        process_request=process_request,
        compression=None,
        ping_interval=None,
        backlog=2048,
        max_queue=16,
    ) as server:
        await server.serve_forever()


def run() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--cpu", type=int, default=None)
    p.add_argument("--nice", type=int, default=None, help="run at this nice level (as the edge)")
    p.add_argument("--tid", default="storm")
    p.add_argument("--body", required=True, help="the gzipped snapshot floor answered")
    p.add_argument("--hello", required=True, help="the hello floor sent")
    p.add_argument("--seq", type=int, required=True, help="the snapshot's number")
    p.add_argument("--connect", default="", help="catch-up frame sizes after the snapshot")
    p.add_argument("--reconnect", default="", help="catch-up frame sizes on a reconnect")
    p.add_argument(
        "--follow",
        help="a pickle: {hello, sample, rounds: [[the follow message each screen got]]}",
    )
    args = p.parse_args()
    follow = pickle.loads(Path(args.follow).read_bytes()) if args.follow else None
    setup_process(args.cpu, args.nice)
    with contextlib.suppress(KeyboardInterrupt):
        body, hello = Path(args.body).read_bytes(), Path(args.hello).read_bytes()
        uvloop.run(main(args, body, hello, follow))


if __name__ == "__main__":
    run()
