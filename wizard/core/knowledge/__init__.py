"""Version knowledge. (Interim: replaced by the compat-table queries.)"""

from __future__ import annotations

from typing import Optional

from wizard.core.model import Target


def choose_target(
    os_kind: str,
    requested: Optional[str] = None,
    installed: Optional[str] = None,
    installed_where: Optional[str] = None,
) -> Target:
    if os_kind == "windows":
        return Target("2.10.0", "11.2", "8.1", "3.7-3.10", "recommended for native Windows", os_kind)
    return Target("2.21.0", "12.5", "9.3", "3.10-3.13", "recommended", os_kind, pip_cuda=True)
