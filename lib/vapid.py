"""VAPID keys (RFC 8292) as the environment holds them: the raw 32-byte P-256 private key,
base64url-encoded, as `vapid --gen` / py_vapid write it. No Django here: settings check a
key with it and `make run` makes one."""

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Raises ValueError on anything that is not base64url."""
    text = text.strip()
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (ValueError, TypeError) as exc:
        raise ValueError("not base64url") from exc


def private_key(encoded: str) -> ec.EllipticCurvePrivateKey:
    """The key of WEBPUSH_VAPID_PRIVATE_KEY; ValueError with a sentence if it is not one."""
    raw = b64url_decode(encoded)
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes, base64url-encoded "
                         f"(this one is {len(raw)} bytes)")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def public_key(encoded_private: str) -> str:
    """The public key browsers need (applicationServerKey): the uncompressed P-256 point,
    base64url."""
    point = private_key(encoded_private).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def new_private_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))
