#!/usr/bin/env python3
"""tools/check_size.py on generated trees, table by table: a function's lines and a class's data
members at the bound and one over, in the folder given, in a subfolder and in a subfolder's
subfolder, several folders at once, and a folder that does not exist.

    tests/tools/check_size_test.py SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys


def function(lines):
    """A .cpp function `lines` long from its opening to its closing brace."""
    body = "".join(f"  x += {i};\n" for i in range(lines - 3))
    return f"int Long(int x) {{\n{body}  return x;\n}}\n"


def struct(members):
    fields = "".join(f"  int f{i} = 0;\n" for i in range(members))
    return f"struct Wide {{\n{fields}  int Sum() const;\n  static int shared;\n}};\n"


# (name, files {relative path: text}, folders passed, expected exit code, text every offender
# line must hold, or None when none is expected)
CASES = [
    ("function at the bound, in a subfolder", {"a/b/ok.cpp": function(120)}, ["a"], 0, None),
    ("function one over, in the folder", {"a/long.cpp": function(121)}, ["a"], 1,
     "a/long.cpp:1: 121 lines"),
    ("function one over, in a subfolder", {"a/b/long.cpp": function(121)}, ["a"], 1,
     "a/b/long.cpp:1: 121 lines"),
    ("function one over, two levels down", {"a/b/c/long.cpp": function(130)}, ["a"], 1,
     "a/b/c/long.cpp:1: 130 lines"),
    ("a long function in a header is not counted", {"a/b/long.h": function(130)}, ["a"], 0, None),
    ("class at the bound, in a subfolder", {"a/b/wide.h": struct(30)}, ["a"], 0, None),
    ("class one over, in a subfolder", {"a/b/wide.h": struct(31)}, ["a"], 1,
     "a/b/wide.h:1: class Wide has 31 data members"),
    ("several folders: the second's offender", {"a/ok.cpp": function(10),
                                                "z/y/long.cpp": function(125)}, ["a", "z"], 1,
     "z/y/long.cpp:1: 125 lines"),
    ("several folders, all within", {"a/ok.cpp": function(10), "z/y/ok.h": struct(3)},
     ["a", "z"], 0, None),
    ("a folder that does not exist", {"a/ok.cpp": function(10)}, ["a", "missing"], 2,
     "missing: expected a folder"),
]


def main(argv):
    root, work = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    tool = os.path.join(root, "tools", "check_size.py")
    failures = []
    for index, (name, files, folders, code, expected) in enumerate(CASES):
        case_dir = os.path.join(work, f"case{index}")
        shutil.rmtree(case_dir, ignore_errors=True)
        for rel, text in files.items():
            path = os.path.join(case_dir, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        run = subprocess.run([sys.executable, tool] + folders, cwd=case_dir, capture_output=True,
                             text=True)
        lines = run.stdout.splitlines()
        ok = run.returncode == code
        if expected is None:
            ok = ok and len(lines) == 1 and "every function within" in lines[0]
        else:
            ok = ok and len(lines) == 1 and lines[0].startswith(expected)
        if not ok:
            failures.append(f"{name}: exit {run.returncode} (expected {code}), output {lines!r}")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"check_size.py: {len(CASES)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
