"""Room codes, seat tokens, game ids and seeds: all from `secrets`, never from the clock."""

from __future__ import annotations

import hashlib
import secrets

# No 0/O, 1/I/L: a code read aloud or typed from a phone survives.
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


def new_game_id() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> str:
    return secrets.token_hex(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
