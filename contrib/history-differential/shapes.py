#!/usr/bin/env python3
"""shapes.py: a repository's own history, rewritten the way assistants write it.

Each of the last N non-merge commits that only edits or adds text files
is rewritten in the shapes assistants answer in: a unified diff with bare
`@@` headers, with shifted line numbers, with wrong counts, with the
blank context lines' leading space lost; Aider's SEARCH/REPLACE blocks;
V4A patches, with and without `@@ <function>` anchors. Each answer is
landed with `git ai-apply --cached` on a private index, against three
truths that need no judgement:

  base     at the commit's parent: the result must be the commit's tree;
  stale    at a commit on top of a later commit L that reverts the
           commit (when `git apply -R` does): the result must be L's tree;
  applied  at L itself, where the change still stands whole (it can
           be reverted there): the tree must not change.

A landing whose tree differs from the truth is printed as WRONG, with
the answer kept in the output directory. Refusals are counted per shape
(a refusal is never wrong, but many refusals of one shape are worth a
look). Nothing in the repository changes: the answers land in a clone
without checkout in the output directory that borrows its objects, HEAD detached
at the start (the tool looks for the revision an answer saw in HEAD's
history). Not part of `make test`: it takes minutes.

usage: shapes.py [-n N] [-l LATER] [-u CONTEXT] [--ai-apply BIN]
                 [--shapes a,b] [-o DIR] REPOSITORY
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

MAX_FILE = 400_000


def git(repo, *args, env=None, check=True, input=None):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True,
                       env=env, input=input)
    if check and r.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args),
                                            r.stderr.decode(errors="replace")))
    return r.stdout


HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")


def parse_diff(text):
    """Files of a `git diff` as dicts: old, new, hunks; None when the
    commit is not plain text edits and additions."""
    files = []
    cur = None
    for line in text.split(b"\n"):
        if line.startswith(b"diff --git "):
            cur = {"old": None, "new": None, "hunks": [], "add": False}
            files.append(cur)
        elif cur is None:
            continue
        elif line.startswith((b"rename ", b"copy ", b"deleted file",
                              b"old mode", b"new mode", b"Binary files",
                              b"GIT binary", b"similarity")):
            return None
        elif line.startswith(b"new file mode"):
            if not line.endswith(b"100644"):
                return None
            cur["add"] = True
        elif line.startswith(b"--- "):
            cur["old"] = line[4:]
        elif line.startswith(b"+++ "):
            cur["new"] = line[4:]
        elif line.startswith(b"@@"):
            m = HUNK.match(line)
            if not m:
                return None
            cur["hunks"].append({"h": m.groups(), "lines": []})
        elif line.startswith((b" ", b"-", b"+")) and cur["hunks"]:
            cur["hunks"][-1]["lines"].append(line)
        elif line.startswith(b"\\"):
            return None  # no newline at end: leave to the diff tests
        elif line == b"" and cur["hunks"]:
            continue
    for f in files:
        if not f["new"] or not f["new"].startswith(b"b/") or not f["hunks"]:
            return None
        f["path"] = f["new"][2:]
        if b'"' in f["path"] or b"\t" in f["path"]:
            return None
    return files or None


def old_text(h):
    return [l[1:] for l in h["lines"] if l[:1] in (b" ", b"-")]


def new_text(h):
    return [l[1:] for l in h["lines"] if l[:1] in (b" ", b"+")]


def header(h, shift=0, count_err=0):
    a, b, c, d, fn = h["h"]
    b = int(b) if b is not None else 1
    d = int(d) if d is not None else 1
    a = max(1, int(a) + shift)
    c = max(1, int(c) + shift)
    return b"@@ -%d,%d +%d,%d @@" % (a, b + count_err, c, d + count_err)


def shape_diff(files, how, rnd):
    out = []
    for f in files:
        out.append(b"--- " + (b"/dev/null" if f["add"] else f["old"]))
        out.append(b"+++ " + f["new"])
        for h in f["hunks"]:
            if how == "bare":
                out.append(b"@@ @@" if rnd.random() < 0.5 else b"@@")
            elif how == "shifted":
                out.append(header(h, shift=rnd.choice([-40, -9, -3, 3, 7, 25, 120])))
            elif how == "counts":
                out.append(header(h, count_err=rnd.choice([-1, 1, 2])))
            else:
                out.append(header(h))
            for l in h["lines"]:
                if how == "blanks" and l.strip() == b"":
                    l = b""
                elif how == "blanks" and l[:1] == b" ":
                    l = l.rstrip(b" \t")
                out.append(l)
    return b"Here is the change.\n\n```diff\n" + b"\n".join(out) + b"\n```\n"


def shape_sr(files, rnd):
    out = [b"Here are the edits.\n"]
    for f in files:
        for h in f["hunks"]:
            old, new = old_text(h), new_text(h)
            if any(l.startswith((b"<<<<<<<", b"=======", b">>>>>>>", b"```"))
                   for l in old + new):
                return None
            if not old and not f["add"]:
                return None
            out.append(f["path"])
            out.append(b"```")
            out.append(b"<<<<<<< SEARCH")
            out.extend(old)
            out.append(b"=======")
            out.extend(new)
            out.append(b">>>>>>> REPLACE")
            out.append(b"```")
            out.append(b"")
    return b"\n".join(out) + b"\n"


MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>", b"```", b"-------",
           b"+++++++", b":start_line:", b":end_line:", b"</")


def sr_blocks(files):
    """(path, old, new, start line) of each hunk; None when a line could
    be read as a marker or a block would have nothing to search."""
    out = []
    for f in files:
        for h in f["hunks"]:
            old, new = old_text(h), new_text(h)
            if any(l.lstrip().startswith(MARKERS) for l in old + new):
                return None
            if not old:
                return None
            out.append((f["path"], old, new, int(h["h"][0])))
    return out


def shape_sr_cline(files):
    """Cline's replace_in_file calls, one per file."""
    blocks = sr_blocks(files)
    if blocks is None:
        return None
    out = [b"I'll make the edits."]
    for path in dict.fromkeys(b[0] for b in blocks):
        out += [b"", b"<replace_in_file>", b"<path>" + path + b"</path>",
                b"<diff>"]
        for bp, old, new, _ in blocks:
            if bp == path:
                out += [b"------- SEARCH"] + old + [b"======="] + new + \
                       [b"+++++++ REPLACE"]
        out += [b"</diff>", b"</replace_in_file>"]
    return b"\n".join(out) + b"\n"


def shape_sr_roo(files, rnd):
    """Roo Code's apply_diff, one per file, :start_line: off by a few
    lines now and then (the line numbers Roo's models read)."""
    blocks = sr_blocks(files)
    if blocks is None:
        return None
    out = [b"Applying the changes."]
    for path in dict.fromkeys(b[0] for b in blocks):
        out += [b"", b"<apply_diff>", b"<path>" + path + b"</path>", b"<diff>"]
        for bp, old, new, start in blocks:
            if bp == path:
                start = max(1, start + rnd.choice([0, 0, 0, -2, 1, 3]))
                out += [b"<<<<<<< SEARCH", b":start_line:%d" % start,
                        b"-------"] + old + [b"======="] + new + \
                       [b">>>>>>> REPLACE"]
        out += [b"</diff>", b"</apply_diff>"]
    return b"\n".join(out) + b"\n"


def shape_sr_trailing(files):
    """Aider's blocks with every line's trailing blanks lost (a model
    that trims lines); None when an added line ends in blanks (the
    truth would keep them)."""
    blocks = sr_blocks(files)
    if blocks is None:
        return None
    if not any(l != l.rstrip() for b in blocks for l in b[1]):
        return None  # nothing to trim: the plain sr shape has it
    out = [b"Here are the edits.\n"]
    for path, old, new, _ in blocks:
        if any(l != l.rstrip() for l in new if l not in old):
            return None
        out += [path, b"```", b"<<<<<<< SEARCH"]
        out += [l.rstrip() for l in old] + [b"======="]
        out += [l.rstrip() for l in new] + [b">>>>>>> REPLACE", b"```", b""]
    return b"\n".join(out) + b"\n"


def shape_v4a(files, anchored):
    out = [b"*** Begin Patch"]
    for f in files:
        if f["add"]:
            out.append(b"*** Add File: " + f["path"])
            for h in f["hunks"]:
                out.extend(b"+" + l for l in new_text(h))
            continue
        out.append(b"*** Update File: " + f["path"])
        for h in f["hunks"]:
            fn = h["h"][4]
            if any(l.startswith(b"***") for l in old_text(h) + new_text(h)):
                return None
            if anchored and len(fn) >= 79:
                return None  # git cut the line: no assistant writes that
            out.append(b"@@ " + fn if anchored and fn else b"@@")
            out.extend(h["lines"])
    out.append(b"*** End Patch")
    return b"\n".join(out) + b"\n"


def make_answer(files, shape, rnd):
    if shape.startswith("diff-"):
        return shape_diff(files, shape[5:], rnd)
    if shape == "sr":
        return shape_sr(files, rnd)
    if shape == "sr-cline":
        return shape_sr_cline(files)
    if shape == "sr-roo":
        return shape_sr_roo(files, rnd)
    if shape == "sr-trailing":
        return shape_sr_trailing(files)
    if shape == "v4a":
        return shape_v4a(files, False)
    if shape == "v4a-anchor":
        return shape_v4a(files, True)
    raise ValueError(shape)


class Runner:
    """Lands answers in a scratch clone that shares the repository's
    objects, its HEAD detached at the start commit (the tool looks for
    the revision an answer saw in HEAD's history, as in a user's
    checkout), on a private index."""

    def __init__(self, repo, ai, out):
        self.ai, self.out = ai, out
        self.repo = os.path.join(out, "scratch")
        if not os.path.isdir(self.repo):
            subprocess.run(["git", "clone", "-q", "-n", "--shared", repo,
                            self.repo], check=True)
        self.index = os.path.join(out, "index")

    def land(self, commit, answer_path):
        """Tree after `git ai-apply --cached` on an index of `commit`
        (HEAD there too), or None when it refused."""
        env = dict(os.environ, GIT_INDEX_FILE=self.index)
        if os.path.exists(self.index):
            os.unlink(self.index)
        git(self.repo, "update-ref", "--no-deref", "HEAD", commit)
        git(self.repo, "read-tree", commit, env=env)
        r = subprocess.run([self.ai, "--cached", "-q", answer_path],
                           cwd=self.repo, env=env, capture_output=True)
        if r.returncode != 0:
            err = r.stderr.decode(errors="replace").splitlines()
            errs = [l for l in err if l.startswith("error")]
            return None, (errs or err or ["?"])[0]
        return git(self.repo, "write-tree", "--missing-ok", env=env).strip().decode(), ""


def tree_of(repo, rev):
    return git(repo, "rev-parse", rev + "^{tree}").strip().decode()


def revert_at(repo, commit, later, scratch):
    """The tree of `later` with `commit` reverted (`git apply -R` of the
    commit's diff, full context), or None when it does not apply."""
    env = dict(os.environ, GIT_INDEX_FILE=scratch)
    if os.path.exists(scratch):
        os.unlink(scratch)
    git(repo, "read-tree", later, env=env)
    d = git(repo, "diff", "--binary", commit + "^", commit)
    r = subprocess.run(["git", "-C", repo, "apply", "--cached", "-R"],
                       input=d, env=env, capture_output=True)
    if r.returncode != 0:
        return None
    tree = git(repo, "write-tree", "--missing-ok", env=env).strip().decode()
    if tree == tree_of(repo, later):
        return None
    return git(repo, "commit-tree", tree, "-p", later, "-m",
               "revert " + commit).strip().decode()


def files_small(repo, commit, files):
    for f in files:
        if f["add"]:
            continue
        r = subprocess.run(["git", "-C", repo, "cat-file", "-s",
                            commit + "^:" + f["path"].decode(errors="replace")],
                           capture_output=True)
        if r.returncode != 0 or int(r.stdout) > MAX_FILE:
            return False
    return True


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("-l", default="5", help="later offsets")
    ap.add_argument("-u", default="1 3", help="context sizes")
    ap.add_argument("--ai-apply", default="git-ai-apply")
    ap.add_argument("--shapes", default="diff-plain,diff-bare,diff-shifted,"
                    "diff-counts,diff-blanks,sr,sr-cline,sr-roo,sr-trailing,"
                    "v4a,v4a-anchor")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o")
    ap.add_argument("repo")
    a = ap.parse_args()
    out = a.o or tempfile.mkdtemp(prefix="shapes.")
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(a.seed)
    run = Runner(os.path.abspath(a.repo), os.path.abspath(a.ai_apply)
                 if os.sep in a.ai_apply else a.ai_apply, out)
    shapes = a.shapes.split(",")
    stats = {s: {"land": 0, "refuse": 0, "wrong": 0} for s in shapes}
    kinds = {}
    commits = git(a.repo, "log", "--format=%H", "--no-merges", "-n",
                  str(a.n)).decode().split()
    for c in commits:
        if subprocess.run(["git", "-C", a.repo, "rev-parse", "-q", "--verify",
                           c + "^"], capture_output=True).returncode:
            continue
        laters = []
        path = git(a.repo, "rev-list", "--reverse", "--ancestry-path",
                   c + "..HEAD").decode().split()
        for k in a.l.split():
            if int(k) <= len(path) and int(k) > 0:
                laters.append(path[int(k) - 1])
        for u in a.u.split():
            files = parse_diff(git(a.repo, "diff", "-U" + u, c + "^", c))
            if not files or not files_small(a.repo, c, files):
                continue
            truths = [("base", c + "^", tree_of(a.repo, c))]
            for L in laters:
                rev = revert_at(run.repo, c, L, os.path.join(out, "scratch-index"))
                if not rev:
                    continue  # the change is no longer whole at L
                truths.append(("stale+%d" % (path.index(L) + 1), rev,
                               tree_of(a.repo, L)))
                truths.append(("applied+%d" % (path.index(L) + 1),
                               L, tree_of(a.repo, L)))
            for shape in shapes:
                ans = make_answer(files, shape, rnd)
                if ans is None:
                    continue
                name = "%s-U%s-%s.md" % (c[:10], u, shape)
                p = os.path.join(out, name)
                with open(p, "wb") as fh:
                    fh.write(ans)
                for kind, start, want in truths:
                    got, err = run.land(start, p)
                    st = stats[shape]
                    k = kinds.setdefault(kind.split("+")[0], [0, 0, 0])
                    k[0 if got == want else 1 if got is None else 2] += 1
                    if got is None:
                        st["refuse"] += 1
                        with open(os.path.join(out, "refusals.txt"), "a") as fh:
                            fh.write("%s %s: %s\n" % (name, kind,
                                                      err))
                    elif got != want:
                        st["wrong"] += 1
                        print("WRONG %s %s (start %s, want tree %s, got %s)"
                              % (p, kind, start, want, got), flush=True)
                    else:
                        st["land"] += 1
    for s in shapes:
        st = stats[s]
        print("%-12s landed right %4d  refused %4d  WRONG %d"
              % (s, st["land"], st["refuse"], st["wrong"]))
    for k, v in sorted(kinds.items()):
        print("%-12s landed right %4d  refused %4d  WRONG %d" % (k, *v))
    print("answers and refusals.txt in", out)


if __name__ == "__main__":
    sys.exit(main())
