package main

// Templates of ordinary Python. $name placeholders are filled by expand.

const plainHeader = `
"""$title helpers for $group."""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import functools
import json
import logging
import os
import re
import time
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

`

const plainGlobals = `
logger = logging.getLogger(__name__)

_WS_RE = re.compile(r"\s+")
_STOPWORDS = frozenset({"a", "an", "the", "of", "to", "and"})
`

const strTmpl = `
def $fn(text: str, *, lower: bool = True, sep: str = "$sep") -> str:
    """Normalises $noun names before they are used as keys."""
    text = text.strip()
    if lower:
        text = text.lower()
    text = _WS_RE.sub(" ", text)
    parts = [p for p in text.split(" ") if p and p not in _STOPWORDS]
    if len(parts) > $n:
        parts = parts[:$n]
    return sep.join(parts)
`

const configTmpl = `
@dataclasses.dataclass
class $Cls:
    """Settings for the $noun $verb step."""

$fields
    def validate(self) -> None:
$checks
    def to_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, raw: Dict[str, Any]) -> "$Cls":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            logger.warning("ignoring unknown keys for %s: %s", cls.__name__, ", ".join(unknown))
        return cls(**{k: v for k, v in raw.items() if k in known})
`

const loaderTmpl = `
class $Cls:
    """Reads $noun records from JSON-lines files."""

    def __init__(self, root: str, limit: Optional[int] = None) -> None:
        self.root = root
        self.limit = limit
        self._seen = 0

    def _paths(self) -> List[str]:
        names = sorted(os.listdir(self.root)) if os.path.isdir(self.root) else []
        return [os.path.join(self.root, n) for n in names if n.endswith("$ext")]

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        for path in self._paths():
            with open(path, encoding="utf-8") as fh:
                for lineno, line in enumerate(fh, 1):
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as exc:
                        logger.warning("%s:%d: %s", path, lineno, exc)
                        continue
                    self._seen += 1
                    yield record
                    if self.limit is not None and self._seen >= self.limit:
                        return

    def __len__(self) -> int:
        return self._seen
`

const metricsTmpl = `
class $Cls:
    """Running counts and means, printed at the end of a run."""

    def __init__(self) -> None:
        self.counts: Dict[str, int] = collections.Counter()
        self.totals: Dict[str, float] = collections.defaultdict(float)

    def update(self, name: str, value: float, weight: int = 1) -> None:
        self.counts[name] += weight
        self.totals[name] += value * weight

    def mean(self, name: str) -> float:
        n = self.counts.get(name, 0)
        return self.totals[name] / n if n else 0.0

    def summary(self, top: int = $n) -> str:
        rows = sorted(self.counts, key=lambda k: (-self.counts[k], k))[:top]
        return "\n".join(f"{k:<24} {self.counts[k]:>8} {self.mean(k):10.4f}" for k in rows)
`

const retryTmpl = `
def $fn(attempts: int = $n, delay: float = 0.$d):
    """Retries the decorated function on transient I/O errors."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            last = None
            for attempt in range(attempts):
                try:
                    return func(*args, **kwargs)
                except (OSError, TimeoutError) as exc:
                    last = exc
                    logger.info("retry %d/%d after %s", attempt + 1, attempts, exc)
                    time.sleep(delay * (2**attempt))
            raise RuntimeError(f"gave up after {attempts} attempts") from last

        return wrapper

    return decorate
`

const csvTmpl = `
def $fn(lines: Iterable[str], delimiter: str = ",") -> List[Dict[str, str]]:
    rows: List[Dict[str, str]] = []
    header: Optional[List[str]] = None
    for raw in lines:
        raw = raw.rstrip("\n")
        if not raw:
            continue
        cells = [c.strip() for c in raw.split(delimiter)]
        if header is None:
            header = cells
            continue
        if len(cells) != len(header):
            logger.debug("skipping ragged row: %r", raw)
            continue
        rows.append(dict(zip(header, cells)))
    return rows
`

const pipelineTmpl = `
def $fn(records: Iterable[Dict[str, Any]], key: str = "$key") -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for record in records:
        value = str(record.get(key, ""))
        value = $callee(value)
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: kv[1], reverse=True))
`

const argsTmpl = `
def $fn(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="$noun tool")
    parser.add_argument("--input", default="$path", help="where to read $noun records")
    parser.add_argument("--limit", type=int, default=$n)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.limit <= 0:
        parser.error("--limit must be positive")
    return args
`

const mergeTmpl = `
def $fn(base: Dict[str, Any], override: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = $fn(out[key], value)
        elif value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


@functools.lru_cache(maxsize=$n)
def $cached(name: str) -> Tuple[str, ...]:
    pieces = re.split(r"[._/-]+", name)
    return tuple(p for p in pieces if p)
`

const asyncTmpl = `
async def $fn(urls: List[str], limit: int = $n) -> List[int]:
    sem = asyncio.Semaphore(limit)

    async def one(url: str) -> int:
        async with sem:
            await asyncio.sleep(0)
            return len(url)

    return list(await asyncio.gather(*(one(u) for u in urls)))
`

const matchTmpl = `
def $fn(command: Any) -> str:
    match command:
        case {"op": "add", "value": int(v)}:
            return f"add {v}"
        case [first, *rest]:
            return f"list of {1 + len(rest)} starting with {first!r}"
        case str() as s if s:
            return $callee(s)
        case _:
            return "unknown"
`

const plainTestTmpl = `
@pytest.mark.parametrize("text", ["", "  Alpha  Beta ", "the end of it"])
def test_$fn(text):
    out = $fn(text)
    assert isinstance(out, str)
    assert out == out.strip()
`
