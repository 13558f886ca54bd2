"""Check a game record file from the command line, as the server's Verify button does.

    python -m app.verify record.json [--seed-hash HEX]

It re-plays the record from its seed through the same engine, checks that the seed's
SHA-256 is the hash published when the game started (from `--seed-hash`, else the
record's own `seed_hash` field) and that the replay reaches the recorded result. It
prints one line per check and exits 0 when every check passes, 1 when one fails, 2 when
the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from app.records import verify


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.verify", description=__doc__)
    parser.add_argument("record", type=Path, help="a record file (GET /api/games/{id}/record)")
    parser.add_argument("--seed-hash", help="the seed hash published when the game started")
    args = parser.parse_args(argv)
    try:
        record = json.loads(args.record.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print(f"{args.record} does not hold a record (a JSON object)", file=sys.stderr)
        return 2
    outcome = verify(record, published_hash=args.seed_hash)
    for check in outcome.checks:
        print(f"{'ok  ' if check['ok'] else 'FAIL'} {check['name']}: {check['detail']}")
    print("verified" if outcome.ok else "NOT verified")
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
