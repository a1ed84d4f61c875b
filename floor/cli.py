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


def _read_secret(args: argparse.Namespace, label: str) -> str | None:
    """A new secret: one line of standard input when it is not a terminal (or with
    ``--secret-stdin``), else typed twice at a prompt that does not echo it. None, with one
    line on stderr, when there is none to use."""
    if args.secret_stdin or not sys.stdin.isatty():
        secret = sys.stdin.readline().rstrip("\r\n")
    else:
        import getpass

        try:
            secret = getpass.getpass(f"{label}: ")
            again = getpass.getpass(f"{label} again: ")
        except (EOFError, KeyboardInterrupt):
            print("\nfloor: secret: none given, nothing changed", file=sys.stderr)
            return None
        if secret != again:
            print("floor: secret: the two entries differ, nothing changed", file=sys.stderr)
            return None
    if not secret:
        print("floor: secret: empty, nothing changed", file=sys.stderr)
        return None
    return secret


def _accounts(redis: Any) -> Any:
    """The accounts on ``redis``, announcing ended sessions to the running servers (their
    open sockets of that account close at once)."""
    from .redisdb.accounts import RedisAccounts
    from .redisdb.signouts import RedisSignOuts
    from .server.accounts import Accounts

    return Accounts(RedisAccounts(redis), signouts=RedisSignOuts(redis))


def _user_add(args: argparse.Namespace) -> int:
    secret = _read_secret(args, f"{'PIN' if args.pin else 'password'} for {args.username}")
    if secret is None:
        return 2

    async def add(redis: Any) -> None:
        await _accounts(redis).add(args.username, secret, args.role, args.table, pin=args.pin)
        print(f"{args.role} {args.username} can sign in now")

    return _with_redis(add)


def _user_passwd(args: argparse.Namespace) -> int:
    kind = {True: "PIN", False: "password", None: "password or PIN"}[args.pin]
    secret = _read_secret(args, f"new {kind} for {args.username}")
    if secret is None:
        return 2

    async def passwd(redis: Any) -> None:
        account = await _accounts(redis).set_secret(args.username, secret, pin=args.pin)
        what = "PIN" if account.pin else "password"
        print(f"{account.username} has a new {what}: their other sessions have ended")

    return _with_redis(passwd)


def _user_unlock(args: argparse.Namespace) -> int:
    async def unlock(redis: Any) -> None:
        cleared = await _accounts(redis).unlock(args.username)
        name = args.username.casefold()
        if cleared:
            print(f"{name}: the sign-in delays from {cleared} address(es) are lifted")
        else:
            print(f"{name}: no sign-in was delayed")

    return _with_redis(unlock)


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
    from .redisdb.seeds import RedisSeeds
    from .store.service import Service

    async def with_store(redis: Any) -> None:
        await work(Service(RedisLog(redis), seeds=RedisSeeds(redis)))

    return _with_redis(with_store)


def _export(args: argparse.Namespace) -> int:
    from .backup import export
    from .server.settings import from_env
    from .signing import SigningError, configured

    settings = from_env()
    try:
        signer, _ = configured(settings.signing_key, settings.signing_keys, settings.data_dir)
    except SigningError as e:
        print(f"floor export: {e}", file=sys.stderr)
        return 2

    async def work(store: Any) -> None:
        n = await export(store, args.tournament, Path(args.file), signer)
        signed = f", signed by {signer.key_id}" if signer is not None else ""
        print(f"exported {args.tournament}: {n} events to {args.file}{signed}")

    return _with_store(work)


def _verify(args: argparse.Namespace) -> int:
    from .signing import SigningError, read_list
    from .verify import Unreadable, verify

    try:
        keys = read_list(Path(args.keys)) if args.keys else None
        report = verify(Path(args.file), keys)
    except (SigningError, Unreadable) as e:
        print(f"floor verify: {e}", file=sys.stderr)
        return 2
    for line in report.lines:
        print(line)
    print("NOT VERIFIED: see FAIL above" if report.failed else "verified")
    return 1 if report.failed else 0


def _keys_new(args: argparse.Namespace) -> int:
    import time

    from .signing import SigningError, new_key

    try:
        pem, listed, key_id = new_key(Path(args.directory), time.time())
    except (SigningError, OSError) as e:
        print(f"floor keys new: {e}", file=sys.stderr)
        return 2
    print(f"made {key_id}")
    print(f"  private half: {pem} (readable by you alone; set FLOOR_SIGNING_KEY to it)")
    print(f"  key list:     {listed} (served at /.well-known/floor-keys.json; publish it)")
    return 0


def _keys_revoke(args: argparse.Namespace) -> int:
    import time

    from .signing import SigningError, revoke

    try:
        revoke(Path(args.keys), args.key_id, args.reason, time.time())
    except SigningError as e:
        print(f"floor keys revoke: {e}", file=sys.stderr)
        return 2
    print(f"revoked {args.key_id} in {args.keys}: nothing it signed is accepted any more")
    return 0


def _import(args: argparse.Namespace) -> int:
    from .backup import import_
    from .redisdb.house_log import RedisHouseLog
    from .store.house import House

    async def work(store: Any) -> None:
        house = House(RedisHouseLog(store.log))
        done = await import_(
            store, Path(args.file), args.new_id, no_digest=args.no_digest, house=house
        )
        print(f"imported {done.tournament}: {done.events} events from {args.file}")
        if not done.digested:
            print(
                f"floor: warning: {args.file} carries no digest (a version 1 export): every "
                "event was checked, but not that the file is as it was exported",
                file=sys.stderr,
            )
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
    p = sub.add_parser(
        "verify", help="check an export or signed results offline: digest, chain, signature"
    )
    p.add_argument("file")
    p.add_argument("--keys", default=None, help="the venue's key list (floor-keys.json)")
    p.set_defaults(func=_verify)
    p = sub.add_parser("keys", help="the venue's signing keys")
    keys = p.add_subparsers(dest="keys_command", required=True, metavar="KEYS_COMMAND")
    p = keys.add_parser("new", help="make a signing key (the old one is kept beside it)")
    p.add_argument("directory", help="outside FLOOR_DATA_DIR: where the key and list go")
    p.set_defaults(func=_keys_new)
    p = keys.add_parser("revoke", help="revoke a key that leaked: nothing it signed is accepted")
    p.add_argument("key_id")
    p.add_argument("--keys", required=True, help="the key list to revoke it in")
    p.add_argument("--reason", default="", help="said to whoever checks a signature")
    p.set_defaults(func=_keys_revoke)
    p = sub.add_parser("import", help="load an exported tournament into this server")
    p.add_argument("file")
    p.add_argument("--as", dest="new_id", default=None, help="import under another id")
    p.add_argument(
        "--no-digest",
        action="store_true",
        help="accept an export written before exports carried a digest (version 1)",
    )
    p.set_defaults(func=_import)

    p = sub.add_parser("user", help="staff accounts")
    users = p.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    p = users.add_parser("add", help="create a staff account (the first director, say)")
    p.add_argument("username")
    p.add_argument(
        "--role", choices=["director", "floor", "dealer", "coordinator", "desk"], default="director"
    )
    # A dealer used to be given a table here; kept so that an old script is told why not.
    p.add_argument("--table", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--pin",
        action="store_true",
        help="the secret is a PIN of 4-8 digits (dealers only: they sign in on a paired "
        "table screen, which says their table)",
    )
    p.add_argument(
        "--secret-stdin", action="store_true", help="read the password or PIN from standard input"
    )
    p.set_defaults(func=_user_add)
    p = users.add_parser(
        "passwd",
        help="set an account's password or PIN (its sessions end)",
        description="Set a new password or PIN, typed twice at a prompt that does not echo"
        " it, or one line of standard input. Every session of the account ends.",
    )
    p.add_argument("username")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument(
        "--pin", action="store_const", const=True, default=None, help="a PIN of 4-8 digits"
    )
    kind.add_argument(
        "--password", dest="pin", action="store_const", const=False, help="a password"
    )
    p.add_argument(
        "--secret-stdin", action="store_true", help="read the password or PIN from standard input"
    )
    p.set_defaults(func=_user_passwd)
    p = users.add_parser("unlock", help="lift an account's sign-in delays, from every address")
    p.add_argument("username")
    p.set_defaults(func=_user_unlock)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
