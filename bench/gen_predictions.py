#!/usr/bin/env python3
"""Synthetic predictions corpus for bench/predictions.sh (issue 23).

  gen_predictions.py repo <files> <bases>      > fast-import stream
  gen_predictions.py preds <files> <bases> <n> <bases.txt> <outdir>

`repo`: a repository of <files> files (100 directories, 30 lines each)
and <bases> commits; commit k (k >= 2) rewrites one line of each of 100
files. Tags base-01 ... base-NN.

`preds`: <n> predictions, dealt over the bases in turn (prediction i on
base i % bases), as SWE-bench predictions (JSON Lines, base_commit from
bases.txt: "<tag> <sha>" lines), plus truth.txt: for each prediction
"<instance> land <path> <blob id>..." (what a right landing holds) or
"<instance> refuse" (no right landing exists). Kinds, by i % 20:
  0..15  fresh: a real diff of 1-3 files at the base's version
  16     stale: written against an older version of a file, changing the
         line after the next of one the base has changed since (its
         context no longer matches; a 3-way merge lands it)
  17     stale, the base changed that very line: a conflict (refuse)
  18     malformed: prose, no change
  19     a hunk whose lines are nowhere in the file (refuse)
Deterministic: the same arguments give the same bytes.
"""
import difflib
import hashlib
import json
import os
import random
import sys

LINES = 30


def path_of(f):
    return "d%02d/f%05d.py" % (f % 100, f)


def line(f, j, v):
    return "value_%d_%d = %d  # version %d\n" % (f, j, f * 31 + j, v)


class Corpus:
    def __init__(self, files, bases):
        self.files, self.bases = files, bases
        rng = random.Random(23)
        # changes[k] = [(file, line)] rewritten by commit k (1-based)
        self.changes = {1: []}
        for k in range(2, bases + 1):
            self.changes[k] = [(f, rng.randrange(LINES))
                               for f in rng.sample(range(files), 100)]

    def content(self, f, k):
        """File f's lines at base k."""
        v = [0] * LINES
        for kk in range(2, k + 1):
            for ff, j in self.changes[kk]:
                if ff == f:
                    v[j] = kk
        return [line(f, j, v[j]) for j in range(LINES)]


def blob_id(text):
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def diff(path, old, new):
    body = "".join(difflib.unified_diff(old, new, "a/" + path, "b/" + path))
    return "diff --git a/%s b/%s\n%s" % (path, path, body)


def emit_repo(c):
    out = sys.stdout.buffer
    for k in range(1, c.bases + 1):
        touched = range(c.files) if k == 1 else sorted({f for f, _ in c.changes[k]})
        out.write(b"commit refs/heads/main\nmark :%d\n" % k)
        out.write(b"committer Bench <bench@example.com> %d +0000\n" % (1700000000 + k))
        msg = b"base %d\n" % k
        out.write(b"data %d\n%s" % (len(msg), msg))
        if k > 1:
            out.write(b"from :%d\n" % (k - 1))
        for f in touched:
            data = "".join(c.content(f, k)).encode()
            out.write(b"M 100644 inline %s\ndata %d\n%s\n" % (path_of(f).encode(), len(data), data))
        out.write(b"\n")
    for k in range(1, c.bases + 1):
        out.write(b"reset refs/tags/base-%02d\nfrom :%d\n\n" % (k, k))


def edit(lines, j, tag):
    new = list(lines)
    new[j] = new[j].replace(" = ", " = 1 + ", 1).replace("\n", "  # %s\n" % tag)
    return new


def prediction(c, rng, i, k):
    """(patch text, truth) of prediction i on base k."""
    kind = i % 20
    tag = "pred %d" % i
    if kind == 18:
        return "I could not find the bug; try restarting the service.\n", None
    if kind == 19:
        f = rng.randrange(c.files)
        p = path_of(f)
        old = ["nothing %d like this\n" % j for j in range(7)]
        return diff(p, old, edit(old, 3, tag)), None
    if kind in (16, 17):
        # a file the base (k) changed since an older base
        for kk in range(k, 1, -1):
            if c.changes[kk]:
                f, j = c.changes[kk][rng.randrange(len(c.changes[kk]))]
                break
        else:
            kind = 0
        if kind in (16, 17):
            older = c.content(f, kk - 1)
            cur = c.content(f, k)
            if cur[j] == older[j]:
                kind = 0  # changed back since: a fresh one instead
    if kind in (16, 17):
        p = path_of(f)
        # 16: two lines after the changed one (one line untouched between)
        t = j if kind == 17 else (j + 2 if j + 2 < LINES else j - 2)
        patch = diff(p, older, edit(older, t, tag))
        if kind == 17:
            return patch, None
        return patch, [(p, "".join(edit(cur, t, tag)))]
    patch, truth = "", []
    for f in rng.sample(range(c.files), 1 + i % 3):
        p = path_of(f)
        cur = c.content(f, k)
        new = edit(cur, rng.randrange(LINES), tag)
        patch += diff(p, cur, new)
        truth.append((p, "".join(new)))
    return patch, truth


def emit_preds(c, n, bases_txt, outdir):
    shas = dict(l.split() for l in open(bases_txt))
    rng = random.Random(2300)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "predictions.jsonl"), "w") as out, \
            open(os.path.join(outdir, "truth.txt"), "w") as truth:
        for i in range(n):
            k = i % c.bases + 1
            inst = "bench__repo-%05d" % i
            patch, t = prediction(c, rng, i, k)
            out.write(json.dumps({"instance_id": inst,
                                  "model_name_or_path": "bench-model",
                                  "model_patch": patch,
                                  "base_commit": shas["base-%02d" % k]}) + "\n")
            if t is None:
                truth.write("%s refuse\n" % inst)
            else:
                truth.write("%s land %s\n" % (inst, " ".join(
                    "%s %s" % (p, blob_id(text)) for p, text in t)))


def main():
    mode, files, bases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    c = Corpus(files, bases)
    if mode == "repo":
        emit_repo(c)
    else:
        emit_preds(c, int(sys.argv[4]), sys.argv[5], sys.argv[6])


if __name__ == "__main__":
    main()
