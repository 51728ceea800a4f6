#!/bin/sh
# Applies docs/.citations.tsv: rewrites references to the developers' notes (tpce.md,
# iops.md, design.md, style.md, peers.md) into references to the repository's own docs.
# One-off, for the lead after merging; delete this script and the TSV afterwards.
#
# Usage: sh docs/.apply-citations.sh [TSV]   (from the repository root)
#
# Each row is PATH:LINE<TAB>OLD<TAB>NEW. OLD is replaced by exact substring match:
#   1. on the named line, if that line still contains OLD;
#   2. else anywhere in the named file: OLD on exactly one line; or on as many lines as
#      there are rows for this file and OLD (lines moved: matched in order); or on
#      several lines that all rows for this file and OLD map to the same NEW;
#   3. if PATH no longer exists (files moved, e.g. schema/dialect -> database/...),
#      the same in the one file of the tree with PATH's base name that contains OLD,
#      else in the one tracked file that contains OLD and is, like PATH, a test or not.
# Rows already applied (NEW found where OLD was expected) are reported as such. Anything
# ambiguous or not found is listed and left alone. At the end the script lists the
# references that remain. Exit status 1 when something needs a hand.
set -eu
tsv=${1:-docs/.citations.tsv}
[ -f "$tsv" ] || { echo "no $tsv (run from the repository root)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
exec python3 - "$tsv" <<'PY'
import os, re, subprocess, sys

tsv = sys.argv[1]
rows = []
for i, raw in enumerate(open(tsv, encoding="utf-8").read().splitlines(), 1):
    if not raw.strip():
        continue
    parts = raw.split("\t")
    if len(parts) != 3 or ":" not in parts[0]:
        sys.exit(f"{tsv}:{i}: want PATH:LINE<TAB>OLD<TAB>NEW")
    path, line = parts[0].rsplit(":", 1)
    rows.append((path, int(line), parts[1], parts[2]))

def tracked():
    try:
        out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
        return [p for p in out.splitlines() if os.path.isfile(p)]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk("."):
            dirs[:] = [x for x in dirs if not x.startswith(".")]
            found += [os.path.relpath(os.path.join(d, f)) for f in files]
        return found

files = tracked()
cache = {}
def lines_of(p):
    if p not in cache:
        cache[p] = open(p, encoding="utf-8").read().split("\n")
    return cache[p]

# NEW texts each (file, OLD) pair is meant to get, to decide when several hits are safe.
wanted = {}
for path, _, old, new in rows:
    wanted.setdefault((os.path.basename(path), old), set()).add(new)

problems = 0

# Lines moved inside a file that still exists: when OLD now occurs on as many lines as
# there are rows for (file, OLD), pair rows and hits in order.
groups = {}
for k, (path, n, old, new) in enumerate(rows):
    groups.setdefault((path, old), []).append(k)
for (path, old), ks in groups.items():
    if not os.path.isfile(path):
        continue
    ls = lines_of(path)
    if all(1 <= rows[k][1] <= len(ls) and old in ls[rows[k][1] - 1] for k in ks):
        continue
    hits = [i + 1 for i, l in enumerate(ls) if old in l]
    if len(hits) == len(ks):
        for k, h in zip(sorted(ks, key=lambda k: rows[k][1]), hits):
            p_, n_, o_, w_ = rows[k]
            rows[k] = (p_, h, o_, w_)
            if h != n_:
                print(f"moved    {p_}:{n_} -> {p_}:{h}")

def apply_in(p, n, old, new):
    """Returns (status, detail) for one file: applied, already, ambiguous, absent."""
    ls = lines_of(p)
    if 1 <= n <= len(ls) and old in ls[n - 1]:
        ls[n - 1] = ls[n - 1].replace(old, new, 1)
        return "applied", f"{p}:{n}"
    hits = [i for i, l in enumerate(ls) if old in l]
    if len(hits) == 1 or (hits and len(wanted[(os.path.basename(p), old)]) == 1):
        for i in hits:
            ls[i] = ls[i].replace(old, new, 1)
        return "applied", ", ".join(f"{p}:{i + 1}" for i in hits) + " (line moved)"
    if hits:
        return "ambiguous", ", ".join(f"{p}:{i + 1}" for i in hits)
    if 1 <= n <= len(ls) and new in ls[n - 1] or any(new in l for l in ls):
        return "already", p
    return "absent", p

counts = {"applied": 0, "already": 0}
for path, n, old, new in rows:
    if os.path.isfile(path):
        candidates = [path]
    else:
        has = lambda p: old in "\n".join(lines_of(p))
        candidates = [p for p in files if os.path.basename(p) == os.path.basename(path) and has(p)]
        if not candidates:
            is_test = path.endswith("_test.go")
            candidates = [p for p in files if p.endswith((".go", ".md", ".sh", ".yml", ".yaml"))
                          and p.endswith("_test.go") == is_test and has(p)]
        if not candidates and any(new in "\n".join(lines_of(p)) for p in files
                                  if p.endswith((".go", ".md", ".sh", ".yml", ".yaml"))):
            counts["already"] += 1
            continue
        if len(candidates) > 1:
            print(f"AMBIGUOUS {path}:{n}: no such file; {old!r} is in " + ", ".join(candidates))
            problems += 1
            continue
    results = [(p,) + apply_in(p, n, old, new) for p in candidates]
    done = [r for r in results if r[1] == "applied"]
    if len(done) == 1:
        counts["applied"] += 1
        if done[0][2] != f"{path}:{n}":
            print(f"moved    {path}:{n} -> {done[0][2]}")
    elif len(done) > 1:
        counts["applied"] += 1
        print(f"CHECK    {path}:{n}: {old!r} replaced in several files: " + "; ".join(r[2] for r in done))
        problems += 1
    elif any(r[1] == "already" for r in results):
        counts["already"] += 1
    elif any(r[1] == "ambiguous" for r in results):
        print(f"AMBIGUOUS {path}:{n}: {old!r} at " + "; ".join(r[2] for r in results if r[1] == "ambiguous"))
        problems += 1
    else:
        print(f"NOT FOUND {path}:{n}: {old!r}" + ("" if candidates else " (no such file)"))
        problems += 1

for p, ls in cache.items():
    text = "\n".join(ls)
    if text != open(p, encoding="utf-8").read():
        open(p, "w", encoding="utf-8").write(text)

left = []
ref = re.compile(r"\b(tpce|design|iops|style|peers|machines)\.md\b")
for p in files:
    if p.startswith("docs/.") or not p.endswith((".go", ".md", ".sh", ".yml", ".yaml")):
        continue
    for i, l in enumerate(open(p, encoding="utf-8").read().split("\n"), 1):
        if ref.search(l) and "docs/" + ref.search(l).group(0) not in l:
            left.append(f"{p}:{i}: {l.strip()}")
print(f"{counts['applied']} applied, {counts['already']} already applied, {problems} need a hand")
if left:
    print("references left:")
    print("\n".join("  " + x for x in left))
sys.exit(1 if problems or left else 0)
PY
