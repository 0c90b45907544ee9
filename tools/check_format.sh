#!/usr/bin/env bash
# Checks that every *.h / *.cpp under src/, tests/ and tools/ is formatted as the repository's
# .clang-format says (clang-format 14, Debian package clang-format): prints each file that is not
# and exits 1 if there is any. Changes nothing; to fix a file: clang-format -i FILE.
#
#   tools/check_format.sh            CLANG_FORMAT=clang-format-14 picks the binary
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 2

CLANG_FORMAT="${CLANG_FORMAT:-}"
if [ -z "$CLANG_FORMAT" ]; then
  for candidate in clang-format-14 clang-format; do
    if command -v "$candidate" >/dev/null; then CLANG_FORMAT="$candidate"; break; fi
  done
fi
if [ -z "$CLANG_FORMAT" ]; then
  echo "format check: clang-format not found (apt-get install clang-format)" >&2
  exit 1
fi

mapfile -t files < <(find src tests tools -name node_modules -prune -o -type f \
                       \( -name '*.h' -o -name '*.cpp' \) -print | LC_ALL=C sort)
bad=()
for file in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --dry-run -Werror --style=file "$file" >/dev/null 2>&1; then
    bad+=("$file")
  fi
done

if [ "${#bad[@]}" -eq 0 ]; then
  echo "format check: all ${#files[@]} files are formatted ($("$CLANG_FORMAT" --version))"
  exit 0
fi
echo "format check: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says" \
  "(clang-format -i FILE fixes one; '$CLANG_FORMAT --dry-run FILE' shows where):" >&2
printf '  %s\n' "${bad[@]}" >&2
exit 1
