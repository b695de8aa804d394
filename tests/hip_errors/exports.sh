#!/usr/bin/env bash
# umbra's libamdhip64.so.5 exports every symbol of src/hip/symbols.txt with its version (so that
# programs linked against Debian's libamdhip64-5 load it without a loader error), has the soname
# programs ask for, and, where Debian's library is installed, exports exactly its list.
# Usage: exports.sh UMBRA_LIB SYMBOLS_TXT [DEBIAN_LIB]
set -euo pipefail
lib=$1 symbols=$2 debian=${3:-}
ours=$(mktemp) want=$(mktemp)
trap 'rm -f "$ours" "$want"' EXIT
# "ADDR g DF .text SIZE (hip_4.2) NAME" / "ADDR g DF .text SIZE hip_4.2 NAME": defined ones only
dynsyms() { objdump -T "$1" | awk '$0 !~ /\*UND\*/ && $1 ~ /^[0-9a-f]+$/ { v=$(NF-1); gsub(/[()]/, "", v); if (v ~ /^hip_/ && $NF !~ /^hip_[0-9.]+$/) print $NF " " v }' | sort; }
dynsyms "$lib" > "$ours"
sort "$symbols" > "$want"
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
status=0
if [ "$soname" != libamdhip64.so.5 ]; then echo "soname is '$soname', not libamdhip64.so.5"; status=1; fi
missing=$(comm -23 "$want" "$ours" | wc -l)
extra=$(comm -13 "$want" "$ours" | wc -l)
if [ "$missing" -ne 0 ]; then echo "missing or wrongly versioned:"; comm -23 "$want" "$ours" | head -20; status=1; fi
if [ "$extra" -ne 0 ]; then echo "exported beyond symbols.txt:"; comm -13 "$want" "$ours" | head -20; status=1; fi
if [ -n "$debian" ] && [ -f "$debian" ]; then
  if ! diff <(dynsyms "$debian") "$ours" > /dev/null; then
    echo "differs from $debian:"; diff <(dynsyms "$debian") "$ours" | head -20; status=1
  else
    echo "the same $(wc -l < "$ours") versioned symbols as $debian"
  fi
fi
[ $status -eq 0 ] && echo "exports: $(wc -l < "$ours") symbols, soname $soname: PASS"
exit $status
