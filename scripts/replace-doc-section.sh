#!/usr/bin/env bash
# Puts a generated section into a Markdown document between its BEGIN and END marker
# lines, keeping everything else; appends it when the markers are not there yet. Used by
# the benchmark scripts to rewrite their own part of docs/benchmarks.md.
#   scripts/replace-doc-section.sh DOC BEGIN_LINE END_LINE SECTION_FILE
# SECTION_FILE holds the whole section, marker lines included.
set -euo pipefail
doc="$1" begin="$2" end="$3" section="$4"
if grep -qF "$begin" "$doc"; then
  awk -v b="$begin" -v e="$end" -v f="$section" '
    $0 == b { while ((getline line < f) > 0) print line; skip = 1; next }
    $0 == e { skip = 0; next }
    !skip { print }' "$doc" > "$doc.tmp"
  mv "$doc.tmp" "$doc"
else
  { echo; cat "$section"; } >> "$doc"
fi
