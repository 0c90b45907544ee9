#!/usr/bin/env python3
"""Bounds the sources' sizes (issues 26 and 43): no function longer than MAX_FUNCTION_LINES lines
(opening to closing brace) in the .cpp files, no class or struct with more than MAX_DATA_MEMBERS
data members in the headers and sources of the given folders and all their subfolders.

Braces are matched after comments, string and character literals are blanked, so it needs no
compiler and reads the few hundred files of src/ in about a second (clang-tidy's
readability-function-size compiles each one: many minutes on two cores). It knows the code's
shapes, not all of C++: a function body is a brace at namespace or class scope whose statement
holds parentheses and no '=' before them; a data member is a ';'-ended declaration at class scope
that is not a function, a using, a friend or a static.

    tools/check_size.py src/viewer src/cli      exit 1 and one line per offender when over
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 120
MAX_DATA_MEMBERS = 30


def blank_comments_and_literals(text):
    """The text with comments and literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else " ")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level(statement, chars):
    """Whether each character of `chars` appears outside (), {}, <> and [] in the statement."""
    depth = 0
    found = set()
    for c in statement:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth = max(0, depth - 1)
        elif depth == 0 and c in chars:
            found.add(c)
    return found


CLASS_HEAD = re.compile(r"\b(class|struct|union)\s+([\w:]+)[^;()]*$")
FUNCTION_HEAD = re.compile(r"\)\s*(const|override|final|noexcept|->[^{]*|\s)*$")


def classify(header):
    """What a '{' after `header` (the statement so far) opens."""
    h = " ".join(header.split())
    if re.search(r"\bnamespace\b", h) or h.startswith("extern \"C\""):
        return ("namespace", None)
    if re.search(r"\benum\b", h):
        return ("other", None)
    m = CLASS_HEAD.search(h)
    if m and "=" not in h:
        return ("class", m.group(2))
    if "(" in h:
        before_paren = h[: h.find("(")]
        # A brace initializer (x = {...}, T t{...}) is not a body.
        if "=" not in before_paren and FUNCTION_HEAD.search(h.split(" : ")[0] if " : " in h else h):
            return ("function", h)
        if "=" not in before_paren and re.search(r"\)\s*:", h):
            return ("function", h)  # a constructor with an initializer list
    return ("other", None)


def check_file(path, problems):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    text = blank_comments_and_literals(raw)
    # Preprocessor lines hold no braces that matter, and macros would confuse the statements.
    text = re.sub(r"(?m)^[ \t]*#.*$", lambda m: " " * len(m.group(0)), text)
    line = 1
    stack = []  # (kind, name, start_line, member_count)
    statement = ""
    for c in text:
        if c == "\n":
            line += 1
        scope = stack[-1][0] if stack else "namespace"
        if scope in ("function", "other", "init"):
            # Inside a body only the braces matter.
            if c == "{":
                stack.append(("other", None, line, 0))
            elif c == "}":
                kind, name, start, _ = stack.pop()
                if kind == "init":
                    statement = name + "{}"  # a member's brace initializer: its statement goes on
                    continue
                if kind == "function" and path.endswith(".cpp"):
                    length = line - start + 1
                    if length > MAX_FUNCTION_LINES:
                        problems.append(f"{path}:{start}: {length} lines (at most "
                                        f"{MAX_FUNCTION_LINES}): {name[:90]}")
                statement = ""
            continue
        if c == "{":
            kind, name = classify(statement)
            if kind == "other" and scope == "class" and not has_top_level_paren(statement):
                kind, name = "init", statement
            stack.append((kind, name, line, 0))
            statement = ""
        elif c == "}":
            if stack:
                kind, name, start, members = stack.pop()
                if kind == "class" and members > MAX_DATA_MEMBERS:
                    problems.append(f"{path}:{start}: class {name} has {members} data members "
                                    f"(at most {MAX_DATA_MEMBERS})")
            statement = ""
        elif c == ";":
            if scope == "class":
                stack[-1] = stack[-1][:3] + (stack[-1][3] + count_members(statement),)
            statement = ""
        else:
            statement += c
            if scope == "class" and statement.rstrip().endswith(":"):
                # Access labels end no statement of their own.
                if re.fullmatch(r"\s*(public|private|protected)\s*:", statement):
                    statement = ""


def count_members(statement):
    s = " ".join(statement.split())
    if not s or re.match(r"(using|typedef|friend|static|template|enum|class|struct|union)\b", s):
        return 0
    if s.startswith("~") or re.search(r"\boperator\b", s):
        return 0
    parts = split_top_level(s)
    # A function declaration has parentheses (outside <>) before its '=' (= default, = delete).
    head = parts[0].split("=")[0]
    if has_top_level_paren(head):
        return 0
    return len(parts)


def has_top_level_paren(s):
    depth = 0
    for c in s:
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0:
            return True
    return False


def split_top_level(s):
    parts, depth, current = [], 0, ""
    for c in s:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth = max(0, depth - 1)
        if c == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return parts


def source_files(folder):
    """The .h and .cpp files under `folder` (subfolders included), in a stable order."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        found.extend(os.path.join(root, n) for n in sorted(names) if n.endswith((".h", ".cpp")))
    return found


def main(argv):
    folders = argv[1:] or ["src/viewer"]
    problems = []
    count = 0
    for folder in folders:
        if not os.path.isdir(folder):
            print(f"{folder}: expected a folder")
            return 2
        files = source_files(folder)
        count += len(files)
        for path in files:
            check_file(path, problems)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{' '.join(folders)}: {count} files, every function within {MAX_FUNCTION_LINES} lines, "
          f"every class within {MAX_DATA_MEMBERS} data members")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
