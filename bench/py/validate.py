"""Validation micro-benchmark, Python side: python validate.py CORPUS_DIR SECONDS

Builds a jsonschema Draft202012Validator for bench/corpus/schema.json once (with
FormatChecker), then collects every violation of valid.json in a loop for SECONDS (all
errors, like mcp-elicit-core). Prints one JSON line:
{"implementation", "validations_per_sec", "correct", "note"}.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import pathlib
import sys
import time

import jsonschema

directory = pathlib.Path(sys.argv[1])
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
schema = json.loads((directory / "schema.json").read_text())
valid = json.loads((directory / "valid.json").read_text())
invalid = json.loads((directory / "invalid.json").read_text())

validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
correct = not list(validator.iter_errors(valid)) and bool(list(validator.iter_errors(invalid)))

# jsonschema checks `uri` and `date-time` only when these optional packages are importable.
checked = [m for m in ("rfc3986_validator", "rfc3339_validator") if importlib.util.find_spec(m)]
missing = sorted({"rfc3986_validator": "uri", "rfc3339_validator": "date-time"}[m]
                 for m in ("rfc3986_validator", "rfc3339_validator") if m not in checked)

count = 0
start = time.perf_counter()
while True:
    for _ in range(64):
        if list(validator.iter_errors(valid)):
            correct = False
    count += 64
    if time.perf_counter() - start >= seconds:
        break
elapsed = time.perf_counter() - start
note = "iter_errors (all violations)"
if missing:
    note += "; formats NOT checked (optional packages absent): " + ", ".join(missing)
print(json.dumps({
    "implementation": f"jsonschema {importlib.metadata.version('jsonschema')} (Python {sys.version.split()[0]})",
    "validations_per_sec": count / elapsed,
    "correct": correct,
    "note": note,
}))
