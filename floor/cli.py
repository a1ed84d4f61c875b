"""The ``floor`` command line. Bad input exits with status 2 and one line on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="floor", description="Live floor management for poker tournaments."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("scenario", help="play a floor scenario (JSON) and print state and plan")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seed", type=int, default=None, help="seed for the random draws")
    p.set_defaults(func=_scenario)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
