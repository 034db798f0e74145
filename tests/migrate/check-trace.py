#!/usr/bin/env python3
"""Checks a POPCORN_TRACE file: JSON in the trace-event format, as many
migration slices as the program moved (each with its rewrite, transfer and
resume phases, frames and bytes), both directions, a page fault on node 1,
a forwarded system call, and a process_name for every node with events.

    check-trace.py TRACE MIGRATIONS
"""
import json
import sys


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    problems = []

    def check(ok, what):
        if not ok:
            problems.append(what)

    try:
        with open(path) as f:
            trace = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {path} is not a JSON file: {e}")
        return 1
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list):
        print(f"FAIL: {path} has no traceEvents array")
        return 1
    slices = [e for e in events if e.get("ph") == "X"]
    for e in slices:
        if not all(isinstance(e.get(k), (int, float)) and e[k] >= 0 for k in ("ts", "dur", "pid")):
            problems.append(f"a slice without ts, dur and pid: {e}")
            break

    def category(name):
        return [e for e in slices if e.get("cat") == name]

    migrations = category("migration")
    check(len(migrations) == expected,
          f"{len(migrations)} migration slices, but the program moved {expected} times")
    check(any(m["args"].get("from") == 0 for m in migrations), "no migration away from home")
    check(any(m["args"].get("to") == 0 for m in migrations), "no migration back home")
    check(all(m["args"].get("frames", 0) > 0 and m["args"].get("bytes", 0) > 0
              for m in migrations), "a migration without frames or bytes")
    phases = category("migration-phase")
    for phase in ("rewrite", "transfer", "resume"):
        count = sum(1 for p in phases if p["name"] == phase)
        check(count == len(migrations), f"{count} {phase} phases for {len(migrations)} migrations")
    for p in phases:
        inside = [m for m in migrations if m["pid"] == p["pid"]
                  and m["ts"] <= p["ts"] + 0.001 and p["ts"] + p["dur"] <= m["ts"] + m["dur"] + 0.002]
        if not inside:
            problems.append(f"a {p['name']} phase outside every migration: {p}")
            break
    faults = [e for e in category("page-fault") if e["pid"] == 2]  # pid: node + 1
    check(faults, "no page fault on node 1")
    check(all(f["args"].get("address", "").startswith("0x") for f in faults),
          "a page fault without an address")
    calls = category("syscall")
    check(calls, "no forwarded system call")
    check(any(c["name"] in ("write", "writev") for c in calls), "no forwarded write")
    check(any(c["name"] in ("open", "openat") for c in calls), "no forwarded open")
    named = {e["pid"] for e in events
             if e.get("ph") == "M" and e.get("name") == "process_name" and e["args"].get("name")}
    used = {e["pid"] for e in slices}
    check(used <= named, f"nodes {sorted(used - named)} have events but no process_name")
    check({1, 2, 3} <= used, f"events on pids {sorted(used)}, not on each of nodes 0, 1 and 2")
    other = trace.get("otherData", {})
    check(isinstance(other.get("dropped_events"), int), "no dropped_events count in otherData")

    for p in problems:
        print(f"FAIL: {path}: {p}")
    if not problems:
        print(f"ok: {path}: {len(migrations)} migrations, {len(faults)} page faults on node 1, "
              f"{len(calls)} forwarded calls")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
