"""Web Push messages encrypted as RFC 8291 says (``aes128gcm``, RFC 8188), by the library the
server sends with (pywebpush, which encrypts with ``http_ece``): checked against the RFC's own
example (its Appendix A, written out below from the RFC text), and a message as the sending
process makes it opened with the subscription's keys alone, as a browser does."""

from __future__ import annotations

import base64
import json

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from pywebpush import WebPusher


def b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key(private: str) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(b64(private), "big"), ec.SECP256R1())


def point(k: ec.EllipticCurvePrivateKey) -> bytes:
    return k.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


# RFC 8291, Appendix A: the user agent's and the application server's keys, the salt, the
# authentication secret, the plaintext and the whole message the server sends.
PLAINTEXT = b"When I grow up, I want to be a watermelon"
AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
AS_PUBLIC = (
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
)
UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
UA_PUBLIC = (
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
)
SALT = "DGv6ra1nlYgDCS1FRnbzlw"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
MESSAGE = (
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)


def test_the_rfc_8291_keys_are_the_pairs_it_says() -> None:
    assert point(key(AS_PRIVATE)) == b64(AS_PUBLIC)
    assert point(key(UA_PRIVATE)) == b64(UA_PUBLIC)


def test_encrypting_the_rfc_8291_example_gives_its_message_byte_for_byte() -> None:
    sent = http_ece.encrypt(
        PLAINTEXT,
        salt=b64(SALT),
        private_key=key(AS_PRIVATE),
        dh=b64(UA_PUBLIC),
        auth_secret=b64(AUTH),
        version="aes128gcm",
        rs=4096,
    )
    assert sent == b64(MESSAGE)
    # The header: the salt, the record size (4096), the server's key with its length.
    assert sent[:16] == b64(SALT)
    assert int.from_bytes(sent[16:20], "big") == 4096
    assert sent[20] == 65 and sent[21:86] == b64(AS_PUBLIC)


def test_the_rfc_8291_message_opens_with_the_user_agents_keys() -> None:
    opened = http_ece.decrypt(
        b64(MESSAGE), private_key=key(UA_PRIVATE), auth_secret=b64(AUTH), version="aes128gcm"
    )
    assert opened == PLAINTEXT


def test_a_message_as_the_sender_makes_it_opens_with_the_subscriptions_keys_alone() -> None:
    phone = ec.generate_private_key(ec.SECP256R1())
    auth = b"0123456789abcdef"
    sub = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {
            "p256dh": base64.urlsafe_b64encode(point(phone)).rstrip(b"=").decode(),
            "auth": base64.urlsafe_b64encode(auth).rstrip(b"=").decode(),
        },
    }
    payload = json.dumps({"alert": {"kind": "move_called", "table": 7, "seat": 3}}).encode()
    first = WebPusher(sub).encode(payload, "aes128gcm")["body"]
    second = WebPusher(sub).encode(payload, "aes128gcm")["body"]
    # A fresh salt and server key each time: the same alert never looks the same twice.
    assert first != second
    for body in (first, second):
        assert (
            http_ece.decrypt(body, private_key=phone, auth_secret=auth, version="aes128gcm")
            == payload
        )
