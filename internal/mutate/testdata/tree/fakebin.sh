#!/bin/bash
# A stand-in for pallas-ls in the harness's tests: `check ... ROOT` prints
# one PAL104 error per line that names an axis "x_renamed", one PAL101
# info per line that is just "    (ring" (ring_all's shard_map removed),
# and nothing else.
root="${@: -1}"
printf '{"diagnostics": ['
sep=""
while IFS=: read -r file line rest; do
  printf '%s{"code": "PAL104", "severity": "error", "file": "%s", "line": %s, "column": 1, "message": "unbound", "jax_error": {"type": "NameError", "message": "Found an unbound axis name: x_renamed. {details}"}}' "$sep" "$file" "$line"
  sep=","
done < <(grep -rn --include='*.py' 'x_renamed' "$root")
while IFS=: read -r file line rest; do
  printf '%s{"code": "PAL101", "severity": "info", "file": "%s", "line": %s, "column": 1, "message": "hint", "jax_error": null}' "$sep" "$file" "$line"
  sep=","
done < <(grep -rn --include='*.py' '^    (ring$' "$root")
printf ']}\n'
