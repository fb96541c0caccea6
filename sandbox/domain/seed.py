"""Everything random in the sandbox derives from its seed, so runs are reproducible.

Each value is a hash of the seed and a path of labels; a merchant's values never
depend on another merchant's activity.
"""

import hashlib
import uuid


def derive_bytes(seed: int, *path: object, size: int = 32) -> bytes:
    material = "\x1f".join(["gateway-sandbox", str(seed), *map(str, path)]).encode()
    return hashlib.blake2b(material, digest_size=size).digest()


def derive_int(seed: int, *path: object, below: int) -> int:
    return int.from_bytes(derive_bytes(seed, *path, size=16), "big") % below


def derive_fraction(seed: int, *path: object) -> float:
    """A number in [0, 1) for jitter such as gas prices; never used for money itself."""
    return derive_int(seed, *path, below=1 << 53) / float(1 << 53)


def derive_uuid(seed: int, *path: object) -> str:
    return str(uuid.UUID(bytes=derive_bytes(seed, *path, size=16), version=4))


def derive_token(seed: int, *path: object, size: int = 24) -> str:
    return derive_bytes(seed, *path, size=size).hex()
