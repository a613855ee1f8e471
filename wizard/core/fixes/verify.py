"""After a fix: look again, the way the layer it fixes looks (what a new terminal would see)."""

from __future__ import annotations

from typing import Any, Optional

from wizard.core import cudnn_installs
from wizard.core.fixes.cudnn import installed_version
from wizard.core.fixes.plan import Plan
from wizard.core.host import Host
from wizard.core.host.windows import expand_vars, registry_path_entries
from wizard.core.messages import Message, msg


def verify(host: Host, plan: Plan) -> tuple[bool, Message]:
    """Whether the fix took, and what was seen."""
    check: dict[str, Any] = plan.verify
    if check.get("layer") == "cudnn":
        dest, windows = check["dest"], bool(check.get("windows"))
        found = installed_version(host, dest)
        folder = host.join(dest, "bin") if windows else host.join(dest, "lib64")
        names = host.listdir(folder)
        major = int(found.split(".")[0]) if found else None
        missing = [n for n in cudnn_installs.expected_files(major, windows)
                   if not cudnn_installs.has_file(names, n, windows)] if major else ["?"]
        ok = found == check.get("version") and not missing
        return ok, msg("fix.verify.cudnn" if ok else "fix.verify.cudnn_bad", version=found or "?",
                       dest=dest, missing=missing or None)
    if "path_entry" in check:
        variable, wanted = check["variable"], check["path_entry"]
        entries = new_terminal_entries(host, variable, check.get("file"))
        if entries is None:
            return True, msg("fix.verify.unknown", name=variable)
        ok = any(host.same_path(e, wanted) for e in entries)
        return ok, msg("fix.verify.path" if ok else "fix.verify.path_bad", dir=wanted,
                       name=variable)
    if "file" in check:
        ok = host.is_file(check["file"])
        return ok, msg("fix.verify.file" if ok else "fix.verify.file_bad", path=check["file"])
    return True, msg("fix.verify.unknown", name=plan.action)


def new_terminal_entries(host: Host, variable: str, profile: Any = None) -> Any:
    """The entries of ``variable`` a newly opened terminal gets: on Windows rebuilt from the
    registry (as the cuda layer does), on Linux from an interactive bash reading the profile."""
    if host.is_windows:
        if variable.upper() == "PATH":
            return registry_path_entries(host)
        from wizard.core.host.windows import SYSTEM_ENV_KEY, USER_ENV_KEY

        variables = {k.upper(): v for k, v in host.env().items()}
        for key in (SYSTEM_ENV_KEY, USER_ENV_KEY):
            for name, (_, data) in host.registry_values(key).items():
                if name.upper() == variable.upper():
                    return [e for e in expand_vars(str(data), variables).split(";") if e]
        return []
    if profile and not str(profile).endswith(".bashrc"):
        return None  # a conda activate.d script: seen when the environment is activated
    result = host.run(["bash", "-ic", f'printf "%s" "${{{variable}}}"'], timeout=30)
    if not result.ok:
        return None
    return [e for e in result.stdout.strip().split(":") if e]


def recheck(host: Host, layer: str, tensorflow: Optional[str] = None,
            python: Optional[str] = None, progress: Any = None, cancelled: Any = None) -> Any:
    """Run the chain again up to ``layer`` (as ``check`` does, for the target TF and the chosen
    Python) and return that layer's :class:`~wizard.core.model.LayerResult`."""
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.model import LAYERS

    layers = tuple(LAYERS[: LAYERS.index(layer) + 1])
    report = run_check(host, CheckOptions(python=python, tensorflow=tensorflow, layers=layers),
                       progress=progress or (lambda fraction, text: None),
                       cancelled=cancelled or (lambda: False))
    return next(result for result in report.layers if result.layer == layer)
