"""List every commit of the URL Standard's main branch that touched url.bs, for
``urlcalc/history/data/commits.json``.

    python spec/history/list_commits.py [BUNDLE] [--check]

BUNDLE is the whole history of https://github.com/whatwg/url as a git bundle (default:
``../shared/spec/whatwg-url-history.bundle`` next to the checkout, else
``/work/shared/spec/whatwg-url-history.bundle``). The script clones it to a temporary directory
and writes the facts git knows (sha, author date, title, the main head, the unmerged branches'
commits) into commits.json, keeping the judgement fields (class, reason, algorithms) from the
JSON that is already there. A commit with no judgement is an error: classify it by reading
``git show SHA -- url.bs`` and add it by hand. ``--check`` writes nothing and fails when the file
would change.

Which commits: ``git log main -- url.bs`` with git's default history simplification, from the
rename of url.src.html to url.bs (0bfe056, 2014-10-22) on. No ``--follow``: following the rename
walks back into url.src.html's history (2012-2014), which is not "since the rename". The default
simplification lists the non-merge commits that changed url.bs and the two merges whose url.bs
differs from every parent (the merge of master into the Bikeshed conversion, and one conflict
resolution); ``--full-history`` would add three merges that only repeat a parent's url.bs.

Standard library only. The commit titles are data from url.bs's history (url.bs is CC BY 4.0).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "urlcalc" / "history" / "data" / "commits.json"
BUNDLES = (ROOT.parent / "shared" / "spec" / "whatwg-url-history.bundle",
           Path("/work/shared/spec/whatwg-url-history.bundle"))
RENAME = "0bfe056ae759b7952e3f2409f275d5dacf970001"
CLASSES = ("normative", "api", "editorial")
LICENCE = ("url.bs is the source of the WHATWG URL Standard (https://url.spec.whatwg.org/), "
           "Copyright (c) WHATWG (Apple, Google, Mozilla, Microsoft), licensed under the "
           "Creative Commons Attribution 4.0 International License "
           "(https://creativecommons.org/licenses/by/4.0/). The commit titles and dates are "
           "from its history (https://github.com/whatwg/url); the classes, reasons and "
           "algorithm lists are urlcalc's reading of each commit's diff of url.bs.")
JUDGEMENT = ("class", "reason", "algorithms")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def log(repo: Path, *revs: str) -> list[dict[str, str]]:
    """Commits touching url.bs in ``revs``, in git's order, oldest first: sha, author date,
    commit date (when it landed: ascending on main, unlike the author dates), first line."""
    out = git(repo, "log", "--reverse", "--date=short", "--format=%H%x00%ad%x00%cd%x00%B%x00",
              *revs, "--", "url.bs")
    fields = out.split("\x00")
    rows = []
    for i in range(0, len(fields) - 1, 4):
        sha, date, committed, body = fields[i].strip(), *fields[i + 1:i + 4]
        rows.append({"commit": sha, "date": date, "committed": committed,
                     "title": body.strip().split("\n")[0]})
    return rows


def history(bundle: Path) -> dict[str, Any]:
    """What git says: the main head, main's url.bs commits, the unmerged branches' commits."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "whatwg-url"
        subprocess.run(["git", "clone", "--quiet", str(bundle), str(repo)], check=True,
                       capture_output=True)
        head = git(repo, "rev-parse", "main").strip()
        main = log(repo, "main")
        branches = sorted(line.strip().removeprefix("origin/")
                          for line in git(repo, "branch", "-r", "--format=%(refname:short)")
                          .splitlines()
                          if line.strip() not in ("origin/main", "origin/HEAD", "origin"))
        proposals = []
        for branch in branches:
            base = git(repo, "merge-base", "main", f"origin/{branch}").strip()
            for row in log(repo, f"main..origin/{branch}"):
                proposals.append({"branch": branch, "base": base, **row})
    if not main or main[0]["commit"] != RENAME:
        raise SystemExit(f"the first url.bs commit on main is not the rename {RENAME[:7]}")
    return {"main": head, "commits": main, "proposals": proposals}


def _judge(rows: list[dict[str, str]], known: dict[str, dict[str, Any]],
           what: str) -> list[dict[str, Any]]:
    out, missing = [], []
    for row in rows:
        old = known.get(row["commit"])
        if old is None or any(k not in old for k in JUDGEMENT):
            missing.append(f"{row['commit'][:7]} {row['date']} {row['title']}")
            continue
        if old["class"] not in CLASSES or not str(old["reason"]).strip():
            missing.append(f"{row['commit'][:7]}: class {old['class']!r} or empty reason")
            continue
        out.append({**row, **{k: old[k] for k in JUDGEMENT}})
    if missing:
        raise SystemExit(f"{len(missing)} {what} have no judgement (read `git show SHA -- url.bs` "
                         "and add class, reason and algorithms):\n  " + "\n  ".join(missing))
    return out


def build(facts: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    known = {c["commit"]: c for c in [*old.get("commits", []), *old.get("proposals", [])]}
    commits = _judge(facts["commits"], known, "commits")
    facts_only = [{k: row[k] for k in ("commit", "date", "committed", "title")}
                  for row in facts["proposals"]]
    proposals = [{**judged, "branch": row["branch"], "base": row["base"], "proposal": True}
                 for judged, row in zip(_judge(facts_only, known, "proposal commits"),
                                        facts["proposals"], strict=True)]
    counts = {c: sum(1 for x in commits if x["class"] == c) for c in CLASSES}
    return {
        "source": {
            "repository": "https://github.com/whatwg/url",
            "bundle": "whatwg-url-history.bundle",
            "main": facts["main"],
            "file": "url.bs",
            "since": f"{RENAME} (2014-10-22, rename url.src.html -> url.bs)",
            "selection": "git log main -- url.bs (default history simplification, no --follow)",
            "generated_by": "spec/history/list_commits.py",
        },
        "licence": LICENCE,
        "classes": {
            "normative": "changes what the calculator computes: the basic URL parser and its "
                         "states, host/IPv4/IPv6/opaque-host/domain parsing, IDNA flags, "
                         "percent-encode sets, serializers, setters, origin, "
                         "application/x-www-form-urlencoded, validation errors, URL writing",
            "api": "the URL and URLSearchParams API only (IDL, new methods, object plumbing): "
                   "no effect on a parse result",
            "editorial": "wording, markup, references, notes, examples, build; also "
                         "definitions for other standards that urlcalc does not compute",
        },
        "other_algorithms": old.get("other_algorithms", {}),
        "counts": {"total": len(commits), **counts, "proposals": len(proposals)},
        "commits": commits,
        "proposals": proposals,
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    bundle = Path(args[0]) if args else next((b for b in BUNDLES if b.is_file()), BUNDLES[0])
    if not bundle.is_file():
        raise SystemExit(f"no bundle at {bundle}")
    old = json.loads(OUT.read_text("utf-8")) if OUT.is_file() else {}
    text = render(build(history(bundle), old))
    if check:
        if not OUT.is_file() or OUT.read_text("utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is out of date", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
