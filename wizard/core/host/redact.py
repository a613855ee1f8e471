"""What a snapshot may keep: it is pasted into public bug reports.

* Only the environment variables the checks read are recorded (:data:`ALLOWED_VARIABLES`), not
  the whole environment: a ``GITHUB_PAT``, a ``DATABASE_URL`` or a shell prompt has nothing to do
  with the GPU. Names that look secret are dropped even when a pattern allows them
  (``CUDA_TOKEN``).
* Credentials inside the values that are kept, and inside every other recorded text (command
  output, file contents, the probe's log), are masked: ``user:pass@`` in URLs, secret query
  parameters, and strings shaped like the tokens of the common services.

User names in paths stay (DESIGN section 3): a profile must replay the machine's paths.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

MASK = "***"

# Shell-style patterns, compared case-insensitively (Windows names are case-insensitive).
ALLOWED_VARIABLES: tuple[str, ...] = (
    "PATH", "PATHEXT", "LD_LIBRARY_PATH", "LD_PRELOAD", "LIBRARY_PATH",
    "CUDA_*", "CUDNN_*", "NVIDIA_*", "NV_*", "TF_*", "XLA_FLAGS", "TENSORRT_*",
    "CONDA_*", "MAMBA_*", "VIRTUAL_ENV", "WORKON_HOME", "PYENV_ROOT", "PYENV_VERSION",
    "PYTHON*", "PIPX_HOME",
    "HOME", "USERPROFILE", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "APPDATA",
    "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "PROGRAMDATA", "SYSTEMROOT", "WINDIR",
    "SYSTEMDRIVE", "PROCESSOR_ARCHITECTURE", "OS",
    "WSL_DISTRO_NAME", "WSLENV", "LANG", "LANGUAGE", "LC_*",
)
SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|_PAT$|COOKIE",
                         re.IGNORECASE)

# user:password@ (or a bare token@) in a URL
URL_CREDENTIALS = re.compile(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)(?P<cred>[^\s/@:;]+(?::[^\s/@;]*)?)@",
                             re.IGNORECASE)
# ?token=..., &password=..., ;sig=...
SECRET_PARAMETER = re.compile(
    r"(?P<name>[?&;](?:[\w-]*(?:token|key|secret|password|passwd|sig|signature|auth)[\w-]*))="
    r"(?P<value>[^&\s;#]+)",
    re.IGNORECASE,
)
# Tokens whose shape says what they are (GitHub, GitLab, Slack, OpenAI/Anthropic-style keys,
# Hugging Face, AWS access keys, npm, PyPI, JSON web tokens).
TOKEN_SHAPES = re.compile(
    r"\b(?:"
    r"gh[pousr]_[A-Za-z0-9]{20,}"
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|glpat-[A-Za-z0-9_-]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|sk-[A-Za-z0-9_-]{20,}"
    r"|hf_[A-Za-z0-9]{20,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|npm_[A-Za-z0-9]{30,}"
    r"|pypi-[A-Za-z0-9_-]{30,}"
    r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
    r")"
)
# "Authorization: Bearer abc", "Basic abc"
AUTH_HEADER = re.compile(r"\b(?P<kind>Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{16,}",
                         re.IGNORECASE)


def variable_allowed(name: str) -> bool:
    """True for a variable the checks read and whose name does not look secret."""
    upper = name.upper()
    if SECRET_NAME.search(upper):
        return False
    return any(fnmatch.fnmatchcase(upper, pattern) for pattern in ALLOWED_VARIABLES)


def mask_secrets(text: str) -> str:
    """``text`` with credentials replaced by ``***`` (the rest unchanged)."""
    if not text:
        return text
    text = URL_CREDENTIALS.sub(lambda m: f"{m.group('scheme')}{MASK}@", text)
    text = SECRET_PARAMETER.sub(lambda m: f"{m.group('name')}={MASK}", text)
    text = TOKEN_SHAPES.sub(MASK, text)
    return AUTH_HEADER.sub(lambda m: f"{m.group('kind')} {MASK}", text)


def redact_env(env: dict[str, str]) -> dict[str, str]:
    """The variables a snapshot keeps, sorted, with credentials in their values masked."""
    return {name: mask_secrets(value) for name, value in sorted(env.items())
            if variable_allowed(name)}


def mask_everywhere(value: Any) -> Any:
    """A copy of a JSON value with :func:`mask_secrets` applied to every string in it (keys
    too: a file path may hold a token)."""
    if isinstance(value, str):
        return mask_secrets(value)
    if isinstance(value, list):
        return [mask_everywhere(item) for item in value]
    if isinstance(value, dict):
        return {mask_everywhere(k) if isinstance(k, str) else k: mask_everywhere(v)
                for k, v in value.items()}
    return value
