"""Windows facts read through a Host: the PATH a newly started terminal gets (rebuilt from the
registry, as Explorer builds it), ``%VAR%`` expansion, and the Program Files folders.

The wizard's own PATH is stale once PATH was edited: checks and probes use what a new terminal
would see (DESIGN section 2)."""

from __future__ import annotations

import re
from typing import Optional

from wizard.core.host.base import Host

SYSTEM_ENV_KEY = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
USER_ENV_KEY = "HKCU\\Environment"
_ENV_VAR = re.compile(r"%([^%;\\/]+)%")


def expand_vars(text: str, variables: dict[str, str]) -> str:
    """Expand ``%NAME%`` (case-insensitive, Windows style); unknown names stay as they are."""

    def replace(match: re.Match[str]) -> str:
        return variables.get(match.group(1).upper(), match.group(0))

    return _ENV_VAR.sub(replace, text)


def registry_path_entries(host: Host) -> Optional[list[str]]:
    """The PATH a newly started terminal gets: the system Path then the user Path from the
    registry, ``%VAR%`` expanded in ``REG_EXPAND_SZ`` values (user variables over system ones,
    then the process's). A ``REG_SZ`` Path keeps its ``%VAR%`` entries literally, as Windows
    does (the classic damage ``setx`` leaves), so such entries find nothing. None when the
    registry says nothing (not Windows, or a profile without registry data)."""
    system = host.registry_values(SYSTEM_ENV_KEY)
    user = host.registry_values(USER_ENV_KEY)
    if not system and not user:
        return None
    variables = {k.upper(): v for k, v in host.env().items()}
    for values in (system, user):
        for name, (kind, data) in values.items():
            if name.upper() != "PATH" and isinstance(data, str):
                variables[name.upper()] = _expand_typed(kind, data, variables)
    entries: list[str] = []
    for values in (system, user):
        raw = next(((t, d) for n, (t, d) in values.items() if n.upper() == "PATH"), None)
        if raw is not None and isinstance(raw[1], str):
            expanded = _expand_typed(raw[0], raw[1], variables)
            entries.extend(e.strip().strip('"') for e in expanded.split(";") if e.strip())
    return entries


def _expand_typed(kind: str, data: str, variables: dict[str, str]) -> str:
    return expand_vars(data, variables) if kind.upper() == "REG_EXPAND_SZ" else data


def program_files(host: Host) -> list[str]:
    """The Program Files folders (64-bit first), from the environment; the default without."""
    roots: list[str] = []
    for name in ("ProgramW6432", "ProgramFiles"):
        value = host.getenv(name)
        if value and not any(host.same_path(value, r) for r in roots):
            roots.append(value)
    if not roots:
        roots.append("C:\\Program Files")
    return roots
