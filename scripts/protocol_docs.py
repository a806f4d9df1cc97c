"""Write the WebSocket protocol's JSON Schema (``docs/protocol.schema.json``) from the pydantic
models in ``paiju/server/protocol.py``, and the message tables of ``docs/protocol.md``
(between the ``<!-- messages:begin -->`` and ``<!-- messages:end -->`` markers) from it.
The client's TypeScript types are generated from the same schema (``client/scripts``).

    python scripts/protocol_docs.py          # write both files
    python scripts/protocol_docs.py --check  # exit 1 if either is stale (CI)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from paiju.server.protocol import json_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "protocol.schema.json"
DOC = ROOT / "docs" / "protocol.md"
BEGIN, END = "<!-- messages:begin -->", "<!-- messages:end -->"


def _type(prop: dict[str, Any]) -> str:
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "enum" in prop:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in prop:
        return " \\| ".join(_type(p) for p in prop["anyOf"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_type(prop.get('items', {}))}"
    if kind == "object" and "additionalProperties" in prop:
        extra = prop["additionalProperties"]
        inner = _type(extra) if isinstance(extra, dict) else "any"
        return f"object of {inner}"
    return str(kind)


def _table(name: str, model: dict[str, Any]) -> list[str]:
    lines = [f"#### `{name}`", ""]
    doc = " ".join((model.get("description") or "").split())
    if doc:
        lines += [doc, ""]
    lines += ["| field | type | meaning |", "|---|---|---|"]
    required = set(model.get("required", []))
    for field, prop in model.get("properties", {}).items():
        meaning = " ".join((prop.get("description") or "").split())
        optional = "" if field in required else " (optional)"
        lines.append(f"| `{field}`{optional} | {_type(prop)} | {meaning} |")
    return [*lines, ""]


def render(schema: dict[str, Any]) -> str:
    """The message tables, from the schema."""
    defs = schema["$defs"]
    out = ["### Client → server", ""]
    client = [ref["$ref"].rsplit("/", 1)[-1] for ref in schema["properties"]["client"]["oneOf"]]
    for name in client:
        out += _table(name, defs[name])
    out += ["### Server → client", ""]
    server = [ref["$ref"].rsplit("/", 1)[-1] for ref in schema["properties"]["server"]["oneOf"]]
    for name in server:
        out += _table(name, defs[name])
    out += ["### Shared shapes", ""]
    for name in sorted(set(defs) - set(client) - set(server)):
        out += _table(name, defs[name])
    return "\n".join(out).rstrip() + "\n"


def expected() -> tuple[str, str]:
    """The schema file's text and the protocol doc's text as they should be."""
    schema = json_schema()
    schema_text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    doc = DOC.read_text(encoding="utf-8")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return schema_text, f"{head}{BEGIN}\n{render(schema)}{END}{tail}"


def main(argv: list[str]) -> int:
    schema_text, doc_text = expected()
    if "--check" in argv:
        stale = [
            str(p.relative_to(ROOT))
            for p, text in ((SCHEMA, schema_text), (DOC, doc_text))
            if not p.exists() or p.read_text(encoding="utf-8") != text
        ]
        if stale:
            print(f"stale: {', '.join(stale)} (run python scripts/protocol_docs.py)")
            return 1
        return 0
    SCHEMA.write_text(schema_text, encoding="utf-8")
    DOC.write_text(doc_text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
