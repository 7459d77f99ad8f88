"""VAPID keys (RFC 8292) as the environment holds them: the raw 32-byte P-256 private key,
base64url-encoded, as `vapid --gen` / py_vapid write it. No Django here: settings check a
key with it and `make run` makes one."""

import base64

# The order of P-256's base point (SEC 2): a private key is a number from 1 to N - 1.
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Raises ValueError on anything that is not base64url."""
    text = text.strip()
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (ValueError, TypeError) as exc:
        raise ValueError("not base64url") from exc


def private_number(encoded: str) -> int:
    """The number of WEBPUSH_VAPID_PRIVATE_KEY; ValueError with a sentence if it is not a
    P-256 private key. Settings check with this: no cryptography import at every start."""
    raw = b64url_decode(encoded)
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes, base64url-encoded "
                         f"(this one is {len(raw)} bytes)")
    number = int.from_bytes(raw, "big")
    if not 0 < number < P256_ORDER:
        raise ValueError("not a P-256 private key (out of the curve's range)")
    return number


def private_key(encoded: str):
    """The key of WEBPUSH_VAPID_PRIVATE_KEY (an EllipticCurvePrivateKey)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.derive_private_key(private_number(encoded), ec.SECP256R1())


def public_key(encoded_private: str) -> str:
    """The public key browsers need (applicationServerKey): the uncompressed P-256 point,
    base64url."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    point = private_key(encoded_private).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def new_private_key() -> str:
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))
