"""The ``floor`` command line. Bad input exits with status 2 and one line on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec


def _scenario(args: argparse.Namespace) -> int:
    from .scenario import ScenarioError, run

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as e:
        print(f"{path}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    try:
        out = run(data, args.seed)
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return 2
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(out), indent=2).decode() + "\n")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .serve import serve

    return serve(args.host, args.port, args.workers)


def _demo(args: argparse.Namespace) -> int:
    from .demo import demo

    return demo(args.host, args.port, args.players, args.pace)


def _user_add(args: argparse.Namespace) -> int:
    import getpass

    from .redisdb.accounts import RedisAccounts
    from .server.accounts import Accounts

    secret = sys.stdin.readline().rstrip("\n") if args.secret_stdin else None
    if secret is None:
        secret = getpass.getpass(f"{'PIN' if args.pin else 'password'} for {args.username}: ")

    async def add(redis: Any) -> None:
        accounts = Accounts(RedisAccounts(redis))
        await accounts.add(args.username, secret, args.role, args.table, pin=args.pin)
        print(f"{args.role} {args.username} can sign in now")

    return _with_redis(add)


def _with_redis(work: Callable[[Any], Awaitable[None]]) -> int:
    """Run ``work(redis)`` on the configured Redis (REDIS_URL, the running embedded Valkey,
    or one started for the while); a FloorError exits with status 2 and one line."""
    import asyncio

    from .engine.errors import FloorError
    from .redisdb.connection import connect
    from .serve import redis_for_tools

    url, server = redis_for_tools()

    async def run() -> None:
        redis = connect(url)
        try:
            await work(redis)
        finally:
            await redis.aclose()

    try:
        asyncio.run(run())
    except FloorError as e:
        print(f"floor: {e}", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            server.stop()
    return 0


def _with_store(work: Callable[[Any], Awaitable[None]]) -> int:
    from .redisdb.log import RedisLog
    from .store.service import Service

    async def with_store(redis: Any) -> None:
        await work(Service(RedisLog(redis)))

    return _with_redis(with_store)


def _export(args: argparse.Namespace) -> int:
    from .backup import export

    async def work(store: Any) -> None:
        n = await export(store, args.tournament, Path(args.file))
        print(f"exported {args.tournament}: {n} events to {args.file}")

    return _with_store(work)


def _import(args: argparse.Namespace) -> int:
    from .backup import import_

    async def work(store: Any) -> None:
        done = await import_(store, Path(args.file), args.new_id)
        print(f"imported {done.tournament}: {done.events} events from {args.file}")
        if done.paused_with is not None:
            left = int(done.paused_with)
            print(
                f"the clock was running: it is paused with {left // 60}:{left % 60:02d} left"
                " in the level, as at the export; resume it when play resumes"
            )

    return _with_store(work)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="floor", description="Live floor management for poker tournaments."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("scenario", help="play a floor scenario (JSON) and print state and plan")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seed", type=int, default=None, help="seed for the random draws")
    p.set_defaults(func=_scenario)

    from .server.settings import describe

    p = sub.add_parser(
        "serve",
        help="run the live server (starts Valkey itself unless REDIS_URL is set)",
        epilog=describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default=None, help="address to listen on (FLOOR_HOST)")
    p.add_argument("--port", type=int, default=None, help="port to listen on (FLOOR_PORT)")
    p.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    p.set_defaults(func=_serve)

    p = sub.add_parser(
        "demo",
        help="serve a simulated 300-player tournament, played live",
        epilog=describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--players", type=int, default=300, help="players in the field")
    p.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="seconds scale of the simulated floor (lower is faster)",
    )
    p.set_defaults(func=_demo)

    p = sub.add_parser("export", help="write a tournament's log and state to a file")
    p.add_argument("tournament")
    p.add_argument("file")
    p.set_defaults(func=_export)
    p = sub.add_parser("import", help="load an exported tournament into this server")
    p.add_argument("file")
    p.add_argument("--as", dest="new_id", default=None, help="import under another id")
    p.set_defaults(func=_import)

    p = sub.add_parser("user", help="staff accounts")
    users = p.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    p = users.add_parser("add", help="create a staff account (the first director, say)")
    p.add_argument("username")
    p.add_argument("--role", choices=["director", "floor", "dealer"], default="director")
    p.add_argument("--table", type=int, default=None, help="a dealer's table")
    p.add_argument("--pin", action="store_true", help="the secret is a PIN of 4-8 digits")
    p.add_argument(
        "--secret-stdin", action="store_true", help="read the password or PIN from standard input"
    )
    p.set_defaults(func=_user_add)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
