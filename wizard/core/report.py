"""Report -> JSON / Markdown / text (DESIGN section 5)."""

from __future__ import annotations

import json

from wizard.core.model import Report


def to_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


def to_markdown(report: Report) -> str:
    data = report.to_dict()
    lines = ["# GPU Setup Wizard report", ""]
    for layer in data["layers"]:
        lines.append(f"- **{layer['layer']}**: {layer['status']} — {layer['summary']}")
        for finding in layer["findings"]:
            lines.append(f"  - `{finding['code']}`: {finding['message']}")
    return "\n".join(lines) + "\n"


def to_text(report: Report, color: bool = False) -> str:
    data = report.to_dict()
    lines = []
    for layer in data["layers"]:
        lines.append(f"[{layer['status']:>7}] {layer['layer']}: {layer['summary']}")
        for finding in layer["findings"]:
            lines.append(f"          {finding['code']}: {finding['message']}")
    return "\n".join(lines) + "\n"
