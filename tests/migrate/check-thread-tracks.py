#!/usr/bin/env python3
"""Checks that a POPCORN_TRACE file has a track of its own for each thread:
home's migration slices lie on THREADS tracks, each named, no two naming
one thread, and a track's migrations do not overlap (a thread moves one
trip at a time).

    check-thread-tracks.py TRACE THREADS
"""
import json
import sys


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    events = json.load(open(path))["traceEvents"]
    moves = [e for e in events if e.get("cat") == "migration" and e["pid"] == 1]
    tracks = {e["tid"] for e in moves}
    named = {e["tid"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"}
    problems = []
    if len(tracks) != expected:
        problems.append(f"home's migrations are on {len(tracks)} tracks, not {expected}")
    if not tracks <= named:
        problems.append(f"tracks {sorted(tracks - named)} have no name")
    if len({t % 10**7 for t in tracks}) != len(tracks):
        problems.append("two tracks of home's process are one thread's")
    for t in tracks:
        own = sorted((e["ts"], e["ts"] + e["dur"]) for e in moves if e["tid"] == t)
        if any(b[0] < a[1] - 0.001 for a, b in zip(own, own[1:])):
            problems.append(f"track {t}: migrations overlap")
    for p in problems:
        print(f"FAIL: {path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
