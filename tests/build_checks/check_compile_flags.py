#!/usr/bin/env python3
"""Every compile line of the project chooses the language standard once, and it is the project's.

Reads BUILD_DIR/compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS) and fails when a command
carries no -std=, more than one, or one other than EXPECTED (e.g. a dependency's `-std=c++11`
from its pkg-config Cflags, which CMake 4 places after CMAKE_CXX_STANDARD's flag).

Usage: check_compile_flags.py BUILD_DIR EXPECTED     (EXPECTED like -std=c++17)
"""
import json
import shlex
import sys
from pathlib import Path


def std_flags(entry):
    words = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    return [w for w in words if w.startswith("-std=")]


def main(build_dir, expected):
    database = Path(build_dir) / "compile_commands.json"
    entries = json.loads(database.read_text())
    if not entries:
        sys.exit(f"{database}: no compile commands")
    wrong = [(e["file"], flags) for e in entries for flags in [std_flags(e)] if flags != [expected]]
    for file, flags in wrong[:20]:
        print(f"{file}: {' '.join(flags) or 'no -std= flag'} (expected exactly {expected})")
    if wrong:
        sys.exit(f"{len(wrong)} of {len(entries)} compile lines choose another language standard")
    print(f"all {len(entries)} compile lines use {expected} and no other -std=")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
