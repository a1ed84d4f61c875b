"""``floor verify`` and ``floor keys`` on the command line, offline: an export of a played
day signed with a key made by ``floor keys new`` verifies; one byte changed anywhere (an
event, a link, the signature, the header, the final state) is named; a forger who links the
changed events again and writes a new digest is caught by the signature; a revoked key, a key
missing from the list and a file that is no export are said as such."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from floor.backup import export
from floor.engine import chain
from floor.redisdb.log import RedisLog
from floor.signing import Signer
from floor.store.service import Service
from tests.integration.test_backup import played

ROOT = Path(__file__).resolve().parents[2]


def floor(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floor", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("venue-keys")
    made = floor("keys", "new", str(directory))
    assert made.returncode == 0, made.stderr
    assert (directory / "floor-signing.pem").stat().st_mode & 0o777 == 0o600
    return directory


@pytest.fixture
async def signed_export(redis: aioredis.Redis, tmp_path: Path, keys: Path) -> Path:
    store = Service(RedisLog(redis), rng=random.Random(3))
    await played(store, "signed", steps=80)
    path = tmp_path / "signed.floor"
    await export(store, "signed", path, Signer.load(keys / "floor-signing.pem"))
    return path


def verify(path: Path, keys: Path | None) -> subprocess.CompletedProcess[str]:
    extra = ("--keys", str(keys / "keys.json")) if keys is not None else ()
    return floor("verify", str(path), *extra)


def test_a_signed_export_verifies_offline(signed_export: Path, keys: Path) -> None:
    out = verify(signed_export, keys)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "verified"
    said = "\n".join(lines)
    for check in ("the digest", "the events", "the hash chain", "signature", "the rules"):
        assert any(line.startswith("ok") and check in line for line in lines), (check, said)
    head = json.loads(signed_export.read_bytes().splitlines()[-4])["link"]
    assert f"head {head}" in said


def rewrite(path: Path, out: Path, number: int, old: bytes, new: bytes) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    assert old in lines[number], lines[number][:200]
    lines[number] = lines[number].replace(old, new, 1)
    out.write_bytes(b"".join(lines))


def test_one_byte_changed_in_an_event_is_named_by_the_chain(
    signed_export: Path, keys: Path, tmp_path: Path
) -> None:
    changed = tmp_path / "changed.floor"
    rewrite(signed_export, changed, 5, b'"name":"Hr', b'"name":"Xr')
    out = verify(changed, keys)
    assert out.returncode == 1
    fails = [line for line in out.stdout.splitlines() if line.startswith("FAIL")]
    assert any("the hash chain: event 5 (player_registered) does not follow" in f for f in fails)
    assert any("the digest" in f for f in fails)
    assert any("signature" in f and "changed after signing" in f for f in fails)
    assert out.stdout.splitlines()[-1].startswith("NOT VERIFIED")


def test_a_changed_link_names_its_event(signed_export: Path, keys: Path, tmp_path: Path) -> None:
    lines = signed_export.read_bytes().splitlines(keepends=True)
    link = json.loads(lines[20])["link"]
    changed = tmp_path / "link.floor"
    rewrite(signed_export, changed, 20, link.encode(), ("0" + link[1:]).encode())
    out = verify(changed, keys)
    assert out.returncode == 1
    assert "FAIL  the hash chain: event 20 " in out.stdout


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [(0, b'"exported_at":', b'"exported_at":1'), (-3, b'"state":{', b'"state":{"x":1,')],
    ids=["the header", "the final state"],
)
def test_a_byte_changed_outside_the_events_fails_the_digest_and_the_signature(
    signed_export: Path, keys: Path, tmp_path: Path, where: int, old: bytes, new: bytes
) -> None:
    changed = tmp_path / "outside.floor"
    number = where % len(signed_export.read_bytes().splitlines())
    rewrite(signed_export, changed, number, old, new)
    out = verify(changed, keys)
    assert out.returncode == 1
    assert "FAIL  the digest: the file changed after it was written" in out.stdout
    assert "FAIL  the venue's signature: what it signed is not these bytes" in out.stdout


def test_a_changed_signature_is_named(signed_export: Path, keys: Path, tmp_path: Path) -> None:
    lines = signed_export.read_bytes().splitlines(keepends=True)
    sig = json.loads(lines[-2])["signature"]
    value = sig["value"]
    forged = value[:10] + ("A" if value[10] != "A" else "B") + value[11:]
    changed = tmp_path / "signature.floor"
    rewrite(signed_export, changed, len(lines) - 2, value.encode(), forged.encode())
    out = verify(changed, keys)
    assert out.returncode == 1
    assert "FAIL  the venue's signature: the signature does not match the key" in out.stdout


def test_a_forger_who_links_again_and_digests_again_is_caught_by_the_signature(
    signed_export: Path, keys: Path, tmp_path: Path
) -> None:
    import hashlib

    lines = signed_export.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:-3]]
    raw = [json.dumps(e["event"], separators=(",", ":")).encode() for e in events]
    raw[4] = raw[4].replace(b'"name":"Hr', b'"name":"Xr', 1)
    links = chain.links(chain.genesis(header["tournament"]), enumerate(raw, 1))
    body = [lines[0]]
    body += [
        b'{"seq":%d,"event":%s,"link":"%s"}\n' % (i, data, link.link.encode())
        for (i, data), link in zip(enumerate(raw, 1), links, strict=True)
    ]
    body += lines[-3:-1]
    digest = hashlib.sha256(b"".join(body)).hexdigest()
    forged = tmp_path / "forged.floor"
    forged.write_bytes(b"".join(body) + b'{"digest":"sha256:%s"}\n' % digest.encode())
    out = verify(forged, keys)
    assert out.returncode == 1
    assert "ok    the digest" in out.stdout
    assert "ok    the hash chain" in out.stdout
    assert "FAIL  the venue's signature: what it signed is not these bytes" in out.stdout


def test_without_the_key_list_the_signature_is_said_unchecked(signed_export: Path) -> None:
    out = verify(signed_export, None)
    assert out.returncode == 0
    assert "not checked (give the venue's key list with --keys)" in out.stdout


def test_a_revoked_key_signs_nothing_any_more(
    signed_export: Path, keys: Path, tmp_path: Path
) -> None:
    listed = tmp_path / "keys.json"
    listed.write_bytes((keys / "keys.json").read_bytes())
    kid = json.loads(listed.read_text())["keys"][0]["key_id"]
    done = floor("keys", "revoke", kid, "--keys", str(listed), "--reason", "laptop stolen")
    assert done.returncode == 0, done.stderr
    out = floor("verify", str(signed_export), "--keys", str(listed))
    assert out.returncode == 1
    assert f"its key {kid} was revoked on" in out.stdout and "laptop stolen" in out.stdout
    again = floor("keys", "revoke", kid, "--keys", str(listed))
    assert again.returncode == 2 and "already revoked" in again.stderr
    unknown = floor("keys", "revoke", "ed25519:0000", "--keys", str(listed))
    assert unknown.returncode == 2 and "no key ed25519:0000" in unknown.stderr


def test_a_rotated_key_still_verifies_what_the_old_one_signed(
    signed_export: Path, keys: Path, tmp_path: Path
) -> None:
    rotated = tmp_path / "rotated"
    rotated.mkdir()
    for name in ("floor-signing.pem", "keys.json"):
        (rotated / name).write_bytes((keys / name).read_bytes())
        (rotated / name).chmod(0o600)
    assert floor("keys", "new", str(rotated)).returncode == 0
    listed = json.loads((rotated / "keys.json").read_text())["keys"]
    assert len(listed) == 2
    assert len(list(rotated.glob("floor-signing.*.pem"))) == 1  # the old key, kept aside
    out = floor("verify", str(signed_export), "--keys", str(rotated / "keys.json"))
    assert out.returncode == 0, out.stdout


def test_what_is_no_export_exits_2_in_one_line(tmp_path: Path, keys: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    for args in (
        ("verify", str(junk)),
        ("verify", str(tmp_path / "missing.floor")),
        ("verify", str(junk), "--keys", str(junk)),
    ):
        out = floor(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.count("\n") == 1 and out.stderr.startswith("floor verify: ")


def test_the_export_command_signs_with_the_configured_key_and_refuses_one_in_the_data(
    redis_url: str, keys: Path, tmp_path: Path
) -> None:
    inside = tmp_path / "data"
    inside.mkdir()
    (inside / "floor-signing.pem").write_bytes((keys / "floor-signing.pem").read_bytes())
    out = floor(
        "export",
        "nothing",
        str(tmp_path / "x.floor"),
        REDIS_URL=redis_url,
        FLOOR_DATA_DIR=str(inside),
        FLOOR_SIGNING_KEY=str(inside / "floor-signing.pem"),
    )
    assert out.returncode == 2
    assert "is inside FLOOR_DATA_DIR" in out.stderr
