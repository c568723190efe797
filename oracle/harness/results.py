"""The result lines: one JSON object per case entry and version.

{"case": "<case dir relative to the repo root>", "entry": "<entry file
relative to the case>", "jax": "<version>", "error": null | {"type": ...,
"message": ..., "layer": ...}}, keys in that order, sorted by case then
entry. oracle/results/<version>.jsonl holds the committed lines.
"""

import json
import os

from . import paths


def line(entry, version, error):
    doc = {"case": entry.case, "entry": entry.path, "jax": version, "error": _error(error)}
    return json.dumps(doc, ensure_ascii=False)


def _error(error):
    if error is None:
        return None
    return {"type": error["type"], "message": error["message"], "layer": error["layer"]}


def lines(results, version):
    ordered = sorted(results.items(), key=lambda kv: (kv[0].case, kv[0].path))
    return [line(e, version, err) for e, err in ordered]


def committed_path(version):
    return os.path.join(paths.RESULTS, f"{version}.jsonl")


def read_committed(version):
    """{(case, entry): line} of the committed results of version."""
    out = {}
    path = committed_path(version)
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if raw:
                doc = json.loads(raw)
                out[(doc["case"], doc["entry"])] = raw
    return out


def write(path, text_lines):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(l + "\n" for l in text_lines)
    os.replace(tmp, path)
