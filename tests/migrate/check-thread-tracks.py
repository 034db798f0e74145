#!/usr/bin/env python3
"""Checks that a POPCORN_TRACE file has a track of its own for each thread
of thread-schedules.c's run (its stderr names each thread's tid and trail):
each thread's migrations from home lie on home's track for its tid,
(1 * 10^7 + tid), named, as many as its trail went from node 0 to node 1;
its migrations back from node 1 lie on node 1's track for it
(2 * 10^7 + tid), as many; and a worker's slices end before main's last
move (the workers end before main walks).

    check-thread-tracks.py TRACE STDERR
"""
import json
import sys


def main():
    path, stderr = sys.argv[1], sys.argv[2]
    tids, trails = {}, {}
    for line in open(stderr):
        words = line.split()
        if len(words) == 3 and words[0] == "tid":
            tids[words[1]] = int(words[2])
        elif len(words) == 3 and words[0] == "trail":
            trails[words[1]] = words[2]
    events = json.load(open(path))["traceEvents"]
    moves = [e for e in events if e.get("cat") == "migration"]
    named = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e["name"] == "thread_name"}
    problems = []
    if len(tids) != 3 or set(tids) != set(trails):
        problems.append(f"{stderr} names threads {sorted(tids)} and trails {sorted(trails)}")
    for who, tid in tids.items():
        trail = trails.get(who, "")
        # The thread's walk begins at home; its first arrival on node 1 is
        # one move too.
        away = sum(1 for a, b in zip("0" + trail, trail) if a == "0" and b == "1")
        for pid, source in ((1, 0), (2, 1)):
            track = pid * 10**7 + tid
            own = [e for e in moves if e["pid"] == pid and e["tid"] == track
                   and e["args"].get("from") == source]
            if len(own) < away:
                problems.append(f"{who} (tid {tid}) went away {away} times, but node {source}'s "
                                f"track {track} has {len(own)} migrations from it")
            if own and (pid, track) not in named:
                problems.append(f"node {source}'s track {track} has no name")
    # The workers ended before main's own walk: nothing of theirs runs past
    # main's last move.
    main = tids.get("main", -1)
    last = max((e["ts"] for e in moves if e["tid"] % 10**7 == main), default=0)
    for who, tid in tids.items():
        ends = [e["ts"] + e["dur"] for e in events if e.get("ph") == "X" and e["tid"] % 10**7 == tid]
        if who != "main" and ends and max(ends) > last:
            problems.append(f"{who} (tid {tid}) has a slice past its end")
    known = {pid * 10**7 + tid for tid in tids.values() for pid in (1, 2)}
    strays = {e["tid"] for e in moves} - known
    if strays:
        problems.append(f"migrations on tracks of no thread: {sorted(strays)}")
    for p in problems:
        print(f"FAIL: {path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
