"""``python -m charlotte.http.openapi [--check]``: rewrite (or check) the shipped OpenAPI document."""

from __future__ import annotations

import sys

from charlotte.http.openapi.document import SHIPPED, render


def main(argv: list[str]) -> int:
    """Write ``SHIPPED`` from the routes; with ``--check``, 1 when it differs and nothing written."""
    text = render()
    current = SHIPPED.read_text(encoding="utf-8") if SHIPPED.exists() else ""
    if "--check" in argv:
        if current != text:
            print(f"{SHIPPED} differs from the routes: run python -m charlotte.http.openapi")
            return 1
        return 0
    if current != text:
        SHIPPED.write_text(text, encoding="utf-8")
        print(f"wrote {SHIPPED}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
