#!/usr/bin/env python3
"""Prints the slowest compilations of a Ninja build (its .ninja_log), so every CI log shows where
the compile time goes. A report, never a reason to fail: a tree built by Make prints a note.
Usage: tools/slowest_compiles.py BUILD_DIR [count]"""
import sys
from pathlib import Path


def main() -> int:
    log = Path(sys.argv[1]) / ".ninja_log"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    if not log.is_file():
        print(f"slowest_compiles.py: no {log} (not a Ninja build)")
        return 0
    latest = {}  # output -> milliseconds of its last build (the log appends every rebuild)
    for line in log.read_text().splitlines():
        fields = line.split("\t")
        if len(fields) == 5 and not line.startswith("#"):
            start, end, _, output, _ = fields
            latest[output] = int(end) - int(start)
    compiles = sorted(((ms, out) for out, ms in latest.items() if out.endswith(".o")), reverse=True)
    total = sum(ms for ms, _ in compiles) / 1000
    print(f"== slowest {min(count, len(compiles))} of {len(compiles)} compilations "
          f"({total:.0f} s of compiler time in all; a ccache hit counts its lookup only)")
    for ms, output in compiles[:count]:
        print(f"{ms / 1000:8.1f} s  {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
