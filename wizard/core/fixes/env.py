"""Environment variables a new terminal will see: PATH, CUDA_PATH, LD_LIBRARY_PATH.

Windows: the registry (``HKCU\\Environment`` by default, the system key with ``system=True``),
never ``setx`` (it truncates at 1024 characters and turns ``REG_EXPAND_SZ`` into ``REG_SZ``):
the value keeps its type and every other entry exactly as it was written (``%SystemRoot%``
unexpanded), an entry already there (expanded and compared as Windows compares paths) is not
added again, and a CUDA folder goes ahead of the older CUDA entries. Linux: a marked block in
``~/.bashrc`` (or a conda environment's ``etc/conda/activate.d`` script) that the fix rewrites
as a whole, so adding twice adds once and undo takes it out.
"""

from __future__ import annotations

import re
from typing import Optional

from wizard.core.fixes.plan import FixError, Op, Plan
from wizard.core.host import Host
from wizard.core.host.windows import SYSTEM_ENV_KEY, USER_ENV_KEY, expand_vars
from wizard.core.messages import msg

BEGIN = "# >>> gpu-wizard >>> (added by gpu-wizard; `gpu-wizard undo` takes it out)"
END = "# <<< gpu-wizard <<<"
_CUDA_ENTRY = re.compile(
    r"NVIDIA GPU Computing Toolkit[\\/]CUDA[\\/]v|[\\/]cuda(-[\d.]+)?([\\/]|$)", re.IGNORECASE)
PATH_LIKE = ("PATH", "LD_LIBRARY_PATH")


def is_cuda_entry(entry: str) -> bool:
    return bool(_CUDA_ENTRY.search(entry))


def plan_path(host: Host, directory: str, variable: str = "PATH", system: bool = False,
              conda_env: Optional[str] = None) -> Plan:
    """Add ``directory`` to ``variable`` for new terminals."""
    title = msg("fix.title.path", dir=directory, name=variable)
    plan = Plan(action="set_env", title=title,
                verify={"variable": variable, "path_entry": directory})
    if host.is_windows:
        _windows_add(host, plan, variable, directory, system)
    else:
        _linux_set(host, plan, variable, directory, conda_env, add=True)
    return plan


def plan_cuda_path(host: Host, cuda_dir: str, system: bool = False,
                   conda_env: Optional[str] = None) -> Plan:
    """``CUDA_PATH`` = ``cuda_dir`` and its ``bin`` on PATH (ahead of older CUDA entries)."""
    if not host.is_dir(cuda_dir):
        raise FixError(msg("fix.refuse.no_cuda_dir", dir=cuda_dir))
    plan = Plan(action="set_env", title=msg("fix.title.cuda_path", dir=cuda_dir),
                verify={"variable": "PATH", "path_entry": host.join(cuda_dir, "bin")})
    if host.is_windows:
        key = SYSTEM_ENV_KEY if system else USER_ENV_KEY
        values = host.registry_values(key)
        name, old = _value(values, "CUDA_PATH")
        if old is None or old[1] != cuda_dir:
            plan.ops.append(Op("registry", key=key, name=name, old=old, new=["REG_SZ", cuda_dir]))
            plan.changes.append({"name": "CUDA_PATH", "where": key,
                                 "old": old[1] if old else None, "new": cuda_dir})
        _windows_add(host, plan, "PATH", host.join(cuda_dir, "bin"), system)
    else:
        _linux_set(host, plan, "CUDA_PATH", cuda_dir, conda_env, add=False)
        _linux_set(host, plan, "PATH", host.join(cuda_dir, "bin"), conda_env, add=True)
    return plan


def _value(values: dict, wanted: str) -> tuple[str, Optional[list]]:
    for name, (kind, data) in values.items():
        if name.upper() == wanted.upper():
            return name, [kind, data]
    return wanted, None


def _windows_add(host: Host, plan: Plan, variable: str, directory: str, system: bool) -> None:
    key = SYSTEM_ENV_KEY if system else USER_ENV_KEY
    name, old = _value(host.registry_values(key), "Path" if variable == "PATH" else variable)
    # an earlier op of this plan may have changed the same value
    for op in plan.ops:
        if op.kind == "registry" and op.key == key and op.name.upper() == name.upper():
            old = op.new
    kind, data = (old[0], str(old[1])) if old else ("REG_EXPAND_SZ", "")
    variables = {k.upper(): v for k, v in host.env().items()}
    for values in (host.registry_values(SYSTEM_ENV_KEY), host.registry_values(USER_ENV_KEY)):
        for n, (_, d) in values.items():
            if n.upper() != "PATH" and isinstance(d, str):
                variables[n.upper()] = d
    parts = data.split(";") if data else []
    for part in parts:
        entry = part.strip().strip('"')
        if entry and host.same_path(expand_vars(entry, variables), directory):
            plan.notes.append(msg("fix.plan.already", dir=directory, name=variable))
            return
    position = len(parts)
    while position > 0 and not parts[position - 1].strip():
        position -= 1  # before a trailing ";"
    if is_cuda_entry(directory):
        first = next((i for i, p in enumerate(parts) if p.strip() and is_cuda_entry(p)), None)
        if first is not None:
            position = first
    new_parts = parts[:position] + [directory] + parts[position:]
    new = ";".join(new_parts)
    plan.ops = [op for op in plan.ops if not (op.kind == "registry" and op.key == key
                                              and op.name.upper() == name.upper())]
    original = _value(host.registry_values(key), name)[1]
    plan.ops.append(Op("registry", key=key, name=name, old=original, new=[kind, new]))
    plan.changes.append({"name": name, "where": key, "old": data if old else None, "new": new})
    if system:
        plan.needs_admin = True


def profile_file(host: Host, conda_env: Optional[str]) -> str:
    if conda_env:
        return host.join(conda_env, "etc", "conda", "activate.d", "gpu-wizard.sh")
    home = host.getenv("HOME") or "~"
    return host.join(home, ".bashrc")


def _linux_set(host: Host, plan: Plan, variable: str, value: str, conda_env: Optional[str],
               add: bool) -> None:
    path = profile_file(host, conda_env)
    pending = next((op for op in plan.ops if op.kind == "file" and op.path == path), None)
    text = pending.source["text"] if pending else (host.read_text(path) or "")
    before, block, after = split_block(text)
    if add:
        line = f'export {variable}="{value}${{{variable}:+:${variable}}}"'
    else:
        line = f'export {variable}="{value}"'
    if line in block:
        plan.notes.append(msg("fix.plan.already", dir=value, name=variable))
        return
    if not add:
        block = [b for b in block if not b.startswith(f"export {variable}=")]
    block.append(line)
    new_text = join_block(before, block, after)
    old_value = host.getenv(variable)
    new_value = f"{value}:{old_value}" if add and old_value else value
    if pending:
        pending.source["text"] = new_text
        pending.size = len(new_text.encode("utf-8"))
    else:
        if conda_env:
            folder = host.path.dirname(path)
            for depth_folder in (host.join(conda_env, "etc"), host.join(conda_env, "etc", "conda"),
                                 folder):
                if not host.is_dir(depth_folder):
                    plan.ops.append(Op("mkdir", depth_folder))
        plan.ops.append(Op("file", path, {"text": new_text}, size=len(new_text.encode("utf-8")),
                           replaces=host.exists(path)))
        plan.verify["file"] = path
    plan.changes.append({"name": variable, "where": path, "old": old_value, "new": new_value})


def split_block(text: str) -> tuple[str, list[str], str]:
    """The text before the gpu-wizard block, the block's lines, the text after it."""
    start = text.find(BEGIN)
    if start < 0:
        return text, [], ""
    end = text.find(END, start)
    if end < 0:
        return text, [], ""
    lines = [line for line in text[start + len(BEGIN):end].splitlines() if line.strip()]
    after = text[end + len(END):]
    return text[:start], lines, after[1:] if after.startswith("\n") else after


def join_block(before: str, block: list[str], after: str) -> str:
    if before and not before.endswith("\n"):
        before += "\n"
    return before + "\n".join([BEGIN, *block, END]) + "\n" + after
