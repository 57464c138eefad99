"""The random ids and keys of sessions, groups, deck profiles and devices, and their shapes.

An id is a view link (16 random bytes); a key is a right to change (24
random bytes), and so is a device's id, which holds the device's rights. All
are URL-safe base64, so anything else in their place is refused by its shape
before any query is made.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import TypeGuard

ID_BYTES = 16
KEY_BYTES = 24
# token_urlsafe(n) writes n bytes as ceil(4n / 3) URL-safe characters.
ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{22}")
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")


def new_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def is_id(text: object) -> bool:
    return isinstance(text, str) and ID_SHAPE.fullmatch(text) is not None


def is_key(text: object) -> TypeGuard[str]:
    return isinstance(text, str) and KEY_SHAPE.fullmatch(text) is not None


def same_key(stored: str, given: object) -> bool:
    """Whether ``given`` is the key ``stored``, compared in constant time."""
    return is_key(given) and hmac.compare_digest(stored, given)
