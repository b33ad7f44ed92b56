"""The ``charlotte`` command line (the only module that reads the environment)."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """charlotte: an AI page builder for fancy-cms pages."""


@main.command()
def demo() -> None:
    """Run the offline builder end to end (not yet available)."""
    click.echo("charlotte demo: not yet available — the page core is being built first.")


if __name__ == "__main__":  # pragma: no cover
    main()
