"""The venue's signing key: results, payout sheets and exports signed with Ed25519.

A key is made by ``floor keys new DIR``: its private half (``floor-signing.pem``, readable by
its owner only) is kept outside the data directory, so a backup of the data or a copy of the
Valkey files never carries it; its public half goes into the venue's key list (``keys.json``
beside it), which the server publishes at ``/.well-known/floor-keys.json`` and which anyone
checking a signature offline reads (``floor verify --keys``). Each signature names its key by
id (``ed25519:`` and 16 hex digits of the public key's SHA-256). Rotating is making a new key:
the list keeps the old ones, so what they signed still checks; a key that leaked is revoked
(``floor keys revoke``), and from then on nothing it signed is accepted, whenever it says it
was signed (a thief can write any date): the venue signs again with its new key what it
still vouches for. ``docs/signing.md`` says all of it for a venue.
"""

from __future__ import annotations

import base64
import hashlib
import os
import time
from pathlib import Path
from typing import Final, Literal

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ALG: Final = "ed25519"
KEY_FILE: Final = "floor-signing.pem"
LIST_FILE: Final = "keys.json"
LIST_FORMAT: Final = "floor-keys"


class SigningError(Exception):
    """A key or a key list that cannot be used, said in words."""


class PublicKey(msgspec.Struct, frozen=True, kw_only=True):
    key_id: str
    alg: Literal["ed25519"] = "ed25519"
    #: The raw 32-byte public key, base64url without padding.
    public: str
    created: float
    revoked: float | None = None
    reason: str = ""


class KeyList(msgspec.Struct, frozen=True, kw_only=True):
    format: str = LIST_FORMAT
    version: int = 1
    keys: list[PublicKey] = msgspec.field(default_factory=list)

    def get(self, key_id: str) -> PublicKey | None:
        return next((k for k in self.keys if k.key_id == key_id), None)


class Signature(msgspec.Struct, frozen=True, kw_only=True):
    """A signature of some bytes: the key that made it, their SHA-256, the signature."""

    alg: str
    key_id: str
    signed: str
    value: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def key_id_of(public: bytes) -> str:
    return f"{ALG}:{hashlib.sha256(public).hexdigest()[:16]}"


class Signer:
    """The venue's private key, loaded from its file."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.key_id = key_id_of(self.public)

    @classmethod
    def load(cls, path: Path) -> Signer:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise SigningError(f"{path}: cannot read the signing key: {e.strerror}") from None
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise SigningError(f"{path}: not a private key in PEM: {e}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningError(f"{path}: not an Ed25519 key")
        return cls(key)

    def sign(self, data: bytes) -> Signature:
        return Signature(
            alg=ALG, key_id=self.key_id, signed=digest(data), value=_b64(self._key.sign(data))
        )

    def listed(self, created: float) -> PublicKey:
        return PublicKey(key_id=self.key_id, public=_b64(self.public), created=created)


def check(signature: Signature, data: bytes, keys: KeyList) -> str | None:
    """Why ``signature`` does not vouch for ``data`` by a key of ``keys``; None when it does."""
    if signature.alg != ALG:
        return f"it is made with {signature.alg!r}, not {ALG}"
    key = keys.get(signature.key_id)
    if key is None:
        return f"its key {signature.key_id} is not in the venue's key list"
    if key.revoked is not None:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(key.revoked))
        why = f": {key.reason}" if key.reason else ""
        return f"its key {key.key_id} was revoked on {when}{why}"
    if signature.signed != digest(data):
        return "what it signed is not these bytes: they were changed after signing"
    try:
        public = Ed25519PublicKey.from_public_bytes(_unb64(key.public))
        public.verify(_unb64(signature.value), data)
    except (InvalidSignature, ValueError):
        return f"the signature does not match the key {key.key_id}: it was changed or forged"
    return None


def read_list(path: Path) -> KeyList:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SigningError(f"{path}: cannot read the key list: {e.strerror}") from None
    try:
        keys = msgspec.json.decode(data, type=KeyList)
    except msgspec.MsgspecError as e:
        raise SigningError(f"{path}: not a floor key list: {e}") from None
    if keys.format != LIST_FORMAT:
        raise SigningError(f"{path}: a {keys.format!r} file, not a {LIST_FORMAT} key list")
    return keys


def _write(path: Path, data: bytes, mode: int) -> None:
    tmp = path.with_name(path.name + ".part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    tmp.replace(path)


def _pretty(keys: KeyList) -> bytes:
    return msgspec.json.format(msgspec.json.encode(keys), indent=2) + b"\n"


def new_key(directory: Path, now: float) -> tuple[Path, Path, str]:
    """A new key in ``directory`` (its private half, and its public half added to the key
    list there): the files and the key's id. An existing private key is kept as
    ``floor-signing.<key id>.pem`` for the venue to destroy once it is sure."""
    directory.mkdir(parents=True, exist_ok=True)
    pem, listed = directory / KEY_FILE, directory / LIST_FILE
    keys = read_list(listed) if listed.exists() else KeyList()
    if pem.exists():
        old = Signer.load(pem)
        pem.replace(directory / f"floor-signing.{old.key_id.split(':')[1]}.pem")
    key = Ed25519PrivateKey.generate()
    _write(
        pem,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        0o600,
    )
    signer = Signer(key)
    _write(listed, _pretty(KeyList(keys=[*keys.keys, signer.listed(now)])), 0o644)
    return pem, listed, signer.key_id


def revoke(listed: Path, key_id: str, reason: str, now: float) -> None:
    keys = read_list(listed)
    key = keys.get(key_id)
    if key is None:
        known = ", ".join(k.key_id for k in keys.keys) or "none"
        raise SigningError(f"{listed}: no key {key_id} (the list holds: {known})")
    if key.revoked is not None:
        raise SigningError(f"{listed}: {key_id} is already revoked")
    changed = [
        msgspec.structs.replace(k, revoked=now, reason=reason) if k.key_id == key_id else k
        for k in keys.keys
    ]
    _write(listed, _pretty(msgspec.structs.replace(keys, keys=changed)), 0o644)


def outside(path: Path, data_dir: Path) -> bool:
    """Whether ``path`` lies outside ``data_dir`` (a key in it would go with every backup)."""
    try:
        path.resolve().relative_to(data_dir.resolve())
    except ValueError:
        return True
    return False


def configured(key: str, listed: str, data_dir: str) -> tuple[Signer | None, KeyList | None]:
    """The signer and key list the settings name (``FLOOR_SIGNING_KEY``, ``FLOOR_SIGNING_KEYS``):
    (None, None) when no key is set. A key inside the data directory, or a key missing from
    its own list, is refused: the server would sign what nobody can check."""
    if not key:
        return None, None
    path = Path(key)
    if not outside(path, Path(data_dir)):
        raise SigningError(
            f"FLOOR_SIGNING_KEY: {path} is inside FLOOR_DATA_DIR ({data_dir}): every backup of "
            "the data would carry the venue's private key; keep it elsewhere"
        )
    signer = Signer.load(path)
    keys = read_list(Path(listed) if listed else path.with_name(LIST_FILE))
    known = keys.get(signer.key_id)
    if known is None:
        raise SigningError(
            f"FLOOR_SIGNING_KEY: its key {signer.key_id} is not in the key list: nobody could "
            "check what it signs"
        )
    if known.revoked is not None:
        raise SigningError(f"FLOOR_SIGNING_KEY: its key {signer.key_id} is revoked")
    return signer, keys
