#!/usr/bin/env python3
"""Prints the slowest tests of a ctest JUnit report (ctest --output-junit), so every CI log keeps
per-test times and a test that grows past its share of the 90-minute budget is seen.
Usage: tools/slowest_tests.py build/junit.xml [count]"""
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as error:
        print(f"slowest_tests.py: cannot read {path}: {error}")
        return 0  # a report, never a reason to fail the run
    times = sorted(((float(c.get("time", 0)), c.get("name", "?")) for c in cases), reverse=True)
    total = sum(t for t, _ in times)
    print(f"== slowest {min(count, len(times))} of {len(times)} tests ({total:.0f} s in all, JUnit: {path})")
    for seconds, name in times[:count]:
        print(f"{seconds:9.2f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
