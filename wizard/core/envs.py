"""Python environment discovery and choice (DESIGN sections 1 and 2.7 of doctor-anchors).

The packaged wizard contains no TensorFlow, so it has to find the user's own environments and
probe each one out of process. :func:`discover` lists candidates, all through the Host:

* the Windows py launcher (``py -0p``),
* PEP 514 registry entries (``HKCU``/``HKLM\\SOFTWARE\\Python\\<Company>\\<Tag>\\InstallPath``),
* conda (``conda env list --json``, else ``~/.conda/environments.txt``, plus the usual roots),
* venvs (a ``pyvenv.cfg``) in the usual places, pyenv versions,
* interpreters on PATH.

The Microsoft Store stub (``WindowsApps\\python.exe`` with no Store Python behind it) and 32-bit
Pythons are kept in the list but carry a ``rejected_reason``. :func:`choose_environment` picks
the environment the check is about.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional

from wizard.core import knowledge
from wizard.core.host import Host, ProbeResult, norm_path
from wizard.core.messages import Message, msg

MAX_PROBED = 8
"""How many discovered environments are probed when the user did not name one."""

TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-gpu",
    "tensorflow-cpu",
    "tensorflow-intel",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
    "tf-nightly-intel",
    "intel-tensorflow",
    "tensorflow-macos",
)
"""The PyPI distributions that install the ``tensorflow`` module, the usual ones first."""

KIND_ORDER = ("conda", "venv", "registry", "launcher", "pyenv", "store", "path")
"""Earlier kinds win when two discoveries are the same environment."""

# Why discovery set an environment aside: a code, whose words are the message
# ``envs.rejected.<code>`` (:func:`rejected_message`).
REJECT_STORE_STUB = "store_stub"
REJECT_PYTHON2 = "python2"
REJECT_32BIT = "32bit"
_LAUNCHER_LINE = re.compile(r"^\s*-(?:V:)?(\S+?)\s+(?:\*\s+)?(\S.*?)\s*$")


@dataclass
class PythonEnv:
    """A Python environment: as discovery finds it (:func:`discover`: kind, name, why it is
    rejected), and as far as the libraries in it matter (``cuda_installs.python_env``:
    site-packages, distributions, conda packages, the TensorFlow installed there)."""

    executable: Optional[str]
    kind: str = ""
    """``conda``, ``venv``, ``registry``, ``launcher``, ``pyenv``, ``store`` or ``path``."""
    name: str = ""
    version: Optional[str] = None
    """Its Python version (``"3.9"`` or ``"3.9.13"``)."""
    rejected_reason: Optional[str] = None
    prefix: Optional[str] = None
    has_tensorflow: Optional[bool] = None
    """True when a ``tensorflow`` package folder was seen in its site-packages (no process run)."""
    sources: list[str] = field(default_factory=list)
    site_packages: list[str] = field(default_factory=list)
    conda: bool = False
    packages: dict[str, Optional[str]] = field(default_factory=dict)
    """Distribution name -> version, from the probe and the ``*.dist-info`` folders."""
    conda_packages: dict[str, str] = field(default_factory=dict)
    """conda package name -> version, from ``conda-meta``."""
    tensorflow: Optional[str] = None
    """The TF version installed there, if any (:func:`tf_version`)."""

    @property
    def usable(self) -> bool:
        return self.rejected_reason is None

    def library_facts(self) -> dict[str, Any]:
        """What the CUDA and cuDNN layers show of the environment."""
        return {
            "executable": self.executable,
            "prefix": self.prefix,
            "python": self.version,
            "site_packages": list(self.site_packages),
            "conda": self.conda,
            "tensorflow": self.tensorflow,
            "nvidia_packages": {k: v for k, v in sorted(self.packages.items())
                                if k.startswith("nvidia-") and v},
            "conda_packages": dict(sorted(self.conda_packages.items())),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "executable": self.executable,
            "kind": self.kind,
            "name": self.name,
            "version": self.version,
            "rejected_reason": self.rejected_reason,
            "prefix": self.prefix,
            "has_tensorflow": self.has_tensorflow,
            "sources": list(self.sources),
        }


# ======================================================================================
# discovery
# ======================================================================================


def discover(host: Host, cwd: Optional[str] = None) -> list[PythonEnv]:
    """Every Python environment found on ``host``, deduplicated, rejected ones included."""
    found: list[PythonEnv] = []
    finders: list[Callable[[], list[PythonEnv]]] = [
        lambda: _conda_envs(host),
        lambda: _venvs(host, cwd),
        lambda: _registry_pythons(host),
        lambda: _launcher_pythons(host),
        lambda: _pyenv_pythons(host),
        lambda: _path_pythons(host),
    ]
    for finder in finders:
        try:
            found.extend(finder())
        except Exception:  # one broken source must not hide the others  # noqa: PERF203
            continue
    envs = dedupe(host, found)
    for env in envs:
        if env.rejected_reason is None and env.version and env.version.startswith("2."):
            env.rejected_reason = REJECT_PYTHON2
    return envs


def _home(host: Host) -> Optional[str]:
    if host.is_windows:
        return host.getenv("USERPROFILE") or _join_opt(host, host.getenv("HOMEDRIVE"),
                                                        host.getenv("HOMEPATH"))
    return host.getenv("HOME")


def _join_opt(host: Host, a: Optional[str], b: Optional[str]) -> Optional[str]:
    return a + b if a and b else None


def env_python(host: Host, prefix: str) -> str:
    """The interpreter of an environment folder (conda prefix or venv)."""
    if host.is_windows:
        candidates = (host.join(prefix, "python.exe"), host.join(prefix, "Scripts", "python.exe"))
        for candidate in candidates:
            if host.exists(candidate):
                return candidate
        return host.join(prefix, "python.exe")
    for name in ("python", "python3"):
        candidate = host.join(prefix, "bin", name)
        if host.exists(candidate):
            return candidate
    return host.join(prefix, "bin", "python")


def _site_packages(host: Host, prefix: str) -> list[str]:
    if host.is_windows:
        return [host.join(prefix, "Lib", "site-packages")]
    dirs = []
    for lib in ("lib", "lib64"):
        dirs.extend(
            host.join(d, "site-packages") for d in host.glob(host.join(prefix, lib), "python3*")
        )
    return dirs


def _has_tensorflow(host: Host, prefix: Optional[str]) -> Optional[bool]:
    if not prefix:
        return None
    return any(host.is_dir(host.join(site, "tensorflow")) for site in _site_packages(host, prefix))


def _conda_version(host: Host, prefix: str) -> Optional[str]:
    for path in host.glob(host.join(prefix, "conda-meta"), "python-[0-9]*.json"):
        match = re.match(r"python-(\d+\.\d+(?:\.\d+)?)", host.path.basename(path))
        if match:
            return match.group(1)
    return None


def _conda_prefixes(host: Host) -> list[tuple[str, str]]:
    """``(prefix, source)`` of every conda environment the machine knows about."""
    prefixes: list[tuple[str, str]] = []
    conda = host.getenv("CONDA_EXE") or host.which("conda")
    if conda:
        result = host.run([conda, "env", "list", "--json"], timeout=30)
        if result.ok:
            try:
                envs = json.loads(result.stdout).get("envs", [])
            except (ValueError, AttributeError):
                envs = []
            prefixes.extend((str(p), "conda env list") for p in envs if isinstance(p, str))
    home = _home(host)
    if home:
        text = host.read_text(host.join(home, ".conda", "environments.txt"))
        for line in (text or "").splitlines():
            if line.strip() and not line.strip().startswith("#"):
                prefixes.append((line.strip(), "environments.txt"))
        roots = ["miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba"]
        for root in roots:
            base = host.join(home, root)
            if host.is_dir(host.join(base, "conda-meta")):
                prefixes.append((base, "conda root"))
            for env_dir in host.glob(host.join(base, "envs"), "*"):
                prefixes.append((env_dir, "conda root"))
    if host.is_windows:
        for var in ("ProgramData", "LOCALAPPDATA"):
            base = host.getenv(var)
            for root in ("miniconda3", "Anaconda3", "miniforge3") if base else ():
                prefix = host.join(base, root)
                if host.is_dir(host.join(prefix, "conda-meta")):
                    prefixes.append((prefix, "conda root"))
                for env_dir in host.glob(host.join(prefix, "envs"), "*"):
                    prefixes.append((env_dir, "conda root"))
    return prefixes


def _conda_envs(host: Host) -> list[PythonEnv]:
    envs = []
    for prefix, source in _conda_prefixes(host):
        if not host.is_dir(prefix):
            continue
        exe = env_python(host, prefix)
        if not host.exists(exe):
            continue  # a conda env without Python (e.g. only tools)
        is_base = any(host.is_dir(host.join(prefix, d)) for d in ("envs", "condabin"))
        envs.append(
            PythonEnv(
                exe,
                "conda",
                name="base" if is_base else host.path.basename(prefix.rstrip("\\/")),
                version=_conda_version(host, prefix),
                prefix=prefix,
                has_tensorflow=_has_tensorflow(host, prefix),
                sources=[source],
            )
        )
    return envs


def _pyvenv_cfg(host: Host, prefix: str) -> Optional[dict[str, str]]:
    text = host.read_text(host.join(prefix, "pyvenv.cfg"), max_bytes=64 * 1024)
    if text is None:
        return None
    values = {}
    for line in text.splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            values[key.strip().lower()] = value.strip()
    return values


def venv_dirs(host: Host, cwd: Optional[str] = None) -> list[str]:
    """Folders that may be venvs, or hold venvs one level down."""
    home = _home(host)
    singles: list[str] = []
    parents: list[str] = []
    if cwd:
        singles += [host.join(cwd, name) for name in (".venv", "venv", "env", ".env")]
    if home:
        singles.append(host.join(home, ".venv"))
        parents += [
            host.join(home, name)
            for name in (".virtualenvs", "venvs", ".venvs", "envs", "Envs", "virtualenvs")
        ]
        parents.append(host.join(home, ".local", "share", "virtualenvs"))  # pipenv
        if host.is_windows:
            local = host.getenv("LOCALAPPDATA")
            if local:
                parents.append(host.join(local, "pypoetry", "Cache", "virtualenvs"))
        else:
            parents.append(host.join(home, ".cache", "pypoetry", "virtualenvs"))
    workon = host.getenv("WORKON_HOME")
    if workon:
        parents.insert(0, workon)
    virtual_env = host.getenv("VIRTUAL_ENV")
    if virtual_env:
        singles.insert(0, virtual_env)
    dirs = list(singles)
    for parent in parents:
        dirs.extend(host.glob(parent, "*"))
    return dirs


def _venvs(host: Host, cwd: Optional[str]) -> list[PythonEnv]:
    envs = []
    for prefix in venv_dirs(host, cwd):
        cfg = _pyvenv_cfg(host, prefix)
        if cfg is None:
            continue
        exe = env_python(host, prefix)
        if not host.exists(exe):
            continue
        version = cfg.get("version") or cfg.get("version_info")
        envs.append(
            PythonEnv(
                exe,
                "venv",
                name=host.path.basename(prefix.rstrip("\\/")),
                version=_short_version(version),
                prefix=prefix,
                has_tensorflow=_has_tensorflow(host, prefix),
                sources=["pyvenv.cfg"],
            )
        )
    return envs


def _short_version(text: Optional[str]) -> Optional[str]:
    if not text:
        return None
    match = re.match(r"(\d+\.\d+(?:\.\d+)?)", text.strip())
    return match.group(1) if match else None


def _pyenv_pythons(host: Host) -> list[PythonEnv]:
    if host.is_windows:
        return []
    root = host.getenv("PYENV_ROOT") or (_home(host) and host.join(_home(host), ".pyenv"))
    if not root:
        return []
    envs = []
    for prefix in host.glob(host.join(root, "versions"), "*"):
        exe = env_python(host, prefix)
        if not host.exists(exe):
            continue
        name = host.path.basename(prefix)
        is_venv = host.exists(host.join(prefix, "pyvenv.cfg"))
        envs.append(
            PythonEnv(
                exe,
                "venv" if is_venv else "pyenv",
                name=name,
                version=_short_version(name),
                prefix=prefix,
                has_tensorflow=_has_tensorflow(host, prefix),
                sources=["pyenv"],
            )
        )
    return envs


_PEP514_ROOTS = (
    ("HKCU\\SOFTWARE\\Python", False),
    ("HKLM\\SOFTWARE\\Python", False),
    ("HKLM\\SOFTWARE\\WOW6432Node\\Python", True),
)


def _registry_pythons(host: Host) -> list[PythonEnv]:
    """PEP 514: ``<root>\\<Company>\\<Tag>\\InstallPath``."""
    if not host.is_windows:
        return []
    envs = []
    for root, wow64 in _PEP514_ROOTS:
        for company in host.registry_subkeys(root):
            if company.lower() == "pylauncher":
                continue
            for tag in host.registry_subkeys(f"{root}\\{company}"):
                key = f"{root}\\{company}\\{tag}"
                env = _registry_entry(host, key, company, tag, wow64)
                if env:
                    envs.append(env)
    return envs


def _reg_value(values: dict[str, tuple[str, Any]], *names: str) -> Optional[str]:
    lowered = {k.lower(): v for k, v in values.items()}
    for name in names:
        entry = lowered.get(name.lower())
        if entry is not None and entry[1] not in (None, ""):
            return str(entry[1])
    return None


def _registry_entry(
    host: Host, key: str, company: str, tag: str, wow64: bool
) -> Optional[PythonEnv]:
    info = host.registry_values(key)
    install = host.registry_values(key + "\\InstallPath")
    exe = _reg_value(install, "ExecutablePath")
    folder = _reg_value(install, "", "(Default)")
    if not exe and folder:
        exe = host.join(folder, "python.exe")
    if not exe:
        return None
    arch = (_reg_value(info, "SysArchitecture") or "").lower()
    if not arch and company == "PythonCore" and tag.endswith("-32"):
        arch = "32bit"
    rejected = REJECT_32BIT if (wow64 or arch == "32bit") else None
    version = _short_version(_reg_value(info, "SysVersion", "Version")) or _short_version(tag)
    return PythonEnv(
        exe,
        "registry",
        name=_reg_value(info, "DisplayName") or f"{company} {tag}",
        version=version,
        rejected_reason=rejected,
        prefix=folder or host.path.dirname(exe),
        has_tensorflow=_has_tensorflow(host, folder or host.path.dirname(exe)),
        sources=[key],
    )


def parse_launcher_list(text: str) -> list[tuple[str, str]]:
    """``py -0p`` lines as ``(tag, path)``: ``" -V:3.11 *  C:\\...\\python.exe"`` or the older
    ``" -3.9-64  C:\\...\\python.exe"``."""
    entries = []
    for line in text.splitlines():
        match = _LAUNCHER_LINE.match(line)
        if not match:
            continue
        path = re.sub(r"\s+\*$", "", match.group(2))  # older launchers mark the default last
        if path.lower().endswith(".exe"):
            entries.append((match.group(1), path))
    return entries


def _launcher_pythons(host: Host) -> list[PythonEnv]:
    if not host.is_windows:
        return []
    result = host.run(["py", "-0p"], timeout=15)
    if not result.ok:
        return []
    envs = []
    for tag, exe in parse_launcher_list(result.stdout):
        rejected = REJECT_32BIT if tag.endswith("-32") else None
        envs.append(
            PythonEnv(
                exe,
                "launcher",
                name=f"py -{tag}",
                version=_short_version(tag.split("/")[-1]),
                rejected_reason=rejected,
                prefix=host.path.dirname(exe),
                has_tensorflow=_has_tensorflow(host, host.path.dirname(exe)),
                sources=["py -0p"],
            )
        )
    return envs


def _is_store_stub(host: Host, exe: str) -> bool:
    """The WindowsApps alias that only opens the Store (no Store Python installed)."""
    parts = re.split(r"[\\/]", exe.lower())
    if "windowsapps" not in parts:
        return False
    folder = host.path.dirname(exe)
    return not host.glob(folder, "PythonSoftwareFoundation.Python.*")


PATH_NAMES = ("python", "python3") + tuple(f"python3.{minor}" for minor in range(7, 15))


def _path_pythons(host: Host) -> list[PythonEnv]:
    """Interpreters on PATH, looked up by name (no directory listing: /usr/bin is large and a
    snapshot would record every entry)."""
    envs = []
    names = [n + ".exe" for n in ("python", "python3")] if host.is_windows else list(PATH_NAMES)
    for directory in host.path_entries():
        if host.path.basename(directory.rstrip("\\/")).lower() == "shims":
            continue  # pyenv/asdf shims are shell scripts that pick an interpreter per folder
        for name in names:
            exe = host.join(directory, name)
            if not host.is_file(exe):
                continue
            store = "windowsapps" in re.split(r"[\\/]", exe.lower())
            stub = host.is_windows and _is_store_stub(host, exe)
            prefix = _prefix_of_bin(host, directory)
            envs.append(
                PythonEnv(
                    exe,
                    "store" if store else "path",
                    name=exe,
                    version=_short_version(name[len("python"):]) if "." in name[6:] else None,
                    rejected_reason=REJECT_STORE_STUB if stub else None,
                    prefix=prefix,
                    has_tensorflow=_has_tensorflow(host, prefix) if prefix else None,
                    sources=["PATH"],
                )
            )
    return envs


def _prefix_of_bin(host: Host, directory: str) -> Optional[str]:
    """The environment folder a PATH directory belongs to (``<prefix>/bin``, ``<prefix>\\Scripts``
    or a Windows prefix itself)."""
    if host.is_windows:
        if host.path.basename(directory.rstrip("\\/")).lower() == "scripts":
            return host.path.dirname(directory.rstrip("\\/"))
        return directory
    if host.path.basename(directory.rstrip("/")) == "bin":
        return host.path.dirname(directory.rstrip("/"))
    return None


def _identity(host: Host, env: PythonEnv) -> str:
    """Two discoveries are the same environment when this key is equal.

    A venv's ``bin/python`` is a symlink to its base interpreter, so resolving the executable
    would merge every venv with its base; environments with their own prefix are keyed by the
    prefix instead, and only bare interpreters by their resolved path.
    """
    prefix = env.prefix
    if prefix and (
        host.exists(host.join(prefix, "pyvenv.cfg")) or host.exists(host.join(prefix, "conda-meta"))
    ):
        return "prefix:" + _resolve(host, prefix)
    return "exe:" + _resolve(host, env.executable)


def _resolve(host: Host, path: str) -> str:
    if host.is_live:
        with contextlib.suppress(OSError, ValueError):
            path = os.path.realpath(path)
    return norm_path(path, host.is_windows)


def dedupe(host: Host, envs: list[PythonEnv]) -> list[PythonEnv]:
    """One entry per environment; the earlier kind wins, sources are merged."""
    ordered = sorted(
        enumerate(envs),
        key=lambda pair: (KIND_ORDER.index(pair[1].kind) if pair[1].kind in KIND_ORDER else 99,
                          pair[0]),
    )
    kept: dict[str, PythonEnv] = {}
    for _, env in ordered:
        key = _identity(host, env)
        if key in kept:
            first = kept[key]
            first.sources.extend(s for s in env.sources if s not in first.sources)
            first.version = first.version or env.version
            if env.rejected_reason and not first.rejected_reason:
                first.rejected_reason = env.rejected_reason
            if first.has_tensorflow is None:
                first.has_tensorflow = env.has_tensorflow
            continue
        kept[key] = replace(env, sources=list(env.sources))
    return list(kept.values())


ProbeCache = dict[str, dict[str, Any]]
"""Probe results by executable, kept by the caller (a wizard session) so the environment list
can show what was already probed without probing again."""


def listing(
    host: Host, cwd: Optional[str] = None, probes: Optional[ProbeCache] = None
) -> list[dict[str, Any]]:
    """Every Python environment of the machine as a dict: ``executable``, the
    :class:`PythonEnv` fields on a live machine, and ``probe`` (from ``probes``, else None).
    A replayed profile gives the environments it recorded."""
    recorded = host.recorded_pythons()
    if recorded is not None:
        return recorded
    if cwd is None:
        cwd = os.getcwd()
    found = []
    for env in discover(host, cwd):
        host.note_python(env.executable)
        found.append(dict(env.to_dict(), probe=(probes or {}).get(env.executable)))
    return found


# ======================================================================================
# choosing the environment to check
# ======================================================================================


def rejected_message(reason: str) -> Message:
    """Why an environment cannot be used, in words (``envs.rejected.<code>``)."""
    return msg(f"envs.rejected.{reason}")


def score(env: PythonEnv) -> int:
    """How likely ``env`` is the one the user means to train in."""
    value = 0
    if env.has_tensorflow:
        value += 100
    lowered = env.name.lower()
    if env.kind in ("conda", "venv") and ("tf" in lowered or "tensorflow" in lowered
                                          or "gpu" in lowered):
        value += 20
    value += {"venv": 10, "conda": 8}.get(env.kind, 0)
    return value


def installed_tf(
    probe: Optional[dict[str, Any]], packages: Optional[Mapping[str, Any]] = None
) -> dict[str, str]:
    """The TF distributions installed, ``{name: version}`` in :data:`TF_DISTRIBUTIONS` order,
    from ``packages`` (distribution -> version) or else the probe's package list."""
    if packages is None:
        listed = probe.get("packages") if isinstance(probe, dict) else None
        packages = listed if isinstance(listed, dict) else {}
    return {name: str(packages[name]) for name in TF_DISTRIBUTIONS if packages.get(name)}


def tf_version(
    probe: Optional[dict[str, Any]], packages: Optional[Mapping[str, Any]] = None
) -> Optional[str]:
    """The TensorFlow version of an environment, or None: the one ``import tensorflow``
    reported, else that of the installed TF distribution (the usual names first). The one
    answer to "which TensorFlow is installed" for the target, the layers and the discovery."""
    tf = probe.get("tensorflow") if isinstance(probe, dict) else None
    if isinstance(tf, dict) and tf.get("version"):
        return str(tf["version"])
    return next(iter(installed_tf(probe, packages).values()), None)


def probe_rank(probe: dict[str, Any]) -> int:
    """Prefer an environment whose TF lists a GPU, then a CUDA build, then one that imports."""
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else {}
    rank = 0
    if tf_version(probe):
        rank += 1
    if tf.get("imported"):
        rank += 2
    if tf.get("built_with_cuda"):
        rank += 4
    if tf.get("gpus"):
        rank += 8
    return rank


def _bits_rejection(probe: Optional[dict[str, Any]]) -> Optional[str]:
    python = (probe or {}).get("python") or {}
    return REJECT_32BIT if python.get("bits") == 32 else None


def _fits(probe: dict[str, Any], python_range: Optional[str]) -> bool:
    version = (probe.get("python") or {}).get("version")
    if not python_range or not version:
        return False
    try:
        return bool(knowledge.python_supported(str(version), python_range))
    except (ValueError, TypeError):
        return False


def _python_key(probe: dict[str, Any]) -> tuple[int, ...]:
    version = (probe.get("python") or {}).get("version")
    return (knowledge.try_parse_version(str(version)) or (0,))[:3] if version else (0,)


def recommended_python_range(host: Host) -> Optional[str]:
    """The Python range of the TF the wizard would recommend on this platform."""
    try:
        return knowledge.choose_target(host.platform.os_kind).python
    except (ValueError, KeyError):
        return None


def active_executables(
    host: Host, candidates: list[tuple[str, Optional[dict[str, Any]], int]]
) -> set[str]:
    """The candidates that belong to the environment activated where the wizard was started
    (``VIRTUAL_ENV``, else ``CONDA_PREFIX``): between equals, that is the one the user means."""
    active = host.getenv("VIRTUAL_ENV") or host.getenv("CONDA_PREFIX")
    if not active:
        return set()
    found = set()
    for exe, probe, _score in candidates:
        python = probe.get("python") if isinstance(probe, dict) else None
        prefix = python.get("prefix") if isinstance(python, dict) else None
        bin_dir = host.path.dirname(exe)
        if (prefix and host.same_path(prefix, active)) or any(
            host.same_path(folder, active) for folder in (bin_dir, host.path.dirname(bin_dir))
        ):
            found.add(exe)
    return found


def pick(
    candidates: list[tuple[str, Optional[dict[str, Any]], int]],
    python_range: Optional[str] = None,
    active: frozenset[str] | set[str] = frozenset(),
) -> tuple[Optional[str], Optional[ProbeResult], Message]:
    """From ``(executable, probe, score)``: the environment with the best TensorFlow.

    With no TensorFlow anywhere, the environment where the recommended TF can be installed
    (its Python in ``python_range``), then the best-scored, then the newest Python, so the
    TensorFlow layer can say what to install where. Between equals, an environment in
    ``active`` (the activated one) wins, so a live check and the replay of its snapshot agree.
    """
    good = [
        (exe, probe, s) for exe, probe, s in candidates
        if isinstance(probe, dict) and not probe.get("error") and not _bits_rejection(probe)
    ]
    with_tf = [c for c in good if tf_version(c[1])]
    if with_tf:
        exe, probe, _ = max(with_tf, key=lambda c: (probe_rank(c[1]), c[0] in active, c[2]))
        return exe, ProbeResult.of(probe), msg("target.env.has_tensorflow",
                                               version=tf_version(probe))
    if good:
        exe, probe, _ = max(
            good, key=lambda c: (_fits(c[1], python_range), c[0] in active, c[2],
                                 _python_key(c[1]))
        )
        return exe, ProbeResult.of(probe), msg("target.env.no_tensorflow",
                                               count=len(candidates), python=exe)
    if candidates:
        return None, None, msg("target.env.none_probed", count=len(candidates))
    return None, None, msg("target.env.none_found")


def choose_environment(
    host: Host,
    python: Optional[str],
    timeout: float = 180.0,
    cancelled: Optional[Callable[[], bool]] = None,
    cwd: Optional[str] = None,
    probes: Optional[ProbeCache] = None,
) -> tuple[Optional[str], Optional[dict[str, Any]], Message]:
    """The environment to check, its probe, and why it was chosen (probes run are added to
    ``probes``).

    ``--python`` wins; in replay the recorded environments are used; on the real machine the
    discovered ones are probed in parallel (the most promising ``MAX_PROBED``).
    """
    if python:
        reason = msg("target.env.python_option", folder=None)
        if host.is_dir(python):  # an environment folder given instead of its interpreter
            inside = env_python(host, python)
            if host.exists(inside):
                python, reason = inside, msg("target.env.python_option", folder=python)
        probe = host.probe_python(python, timeout=timeout, cancelled=cancelled)
        if probe.get("error_kind") != "cancelled" and probes is not None:
            probes[python] = probe
        return python, probe, reason
    recorded = host.recorded_pythons()
    if recorded is not None:  # a replayed profile: its recorded environments
        # "score" (optional) is the discovery score a snapshot recorded, so a replay breaks
        # ties between environments exactly as the live check did.
        candidates = [
            (e["executable"], e.get("probe"), int(e.get("score") or 0)) for e in recorded
        ]
        return pick(candidates, recommended_python_range(host),
                    active_executables(host, candidates))
    envs = [e for e in discover(host, cwd=cwd if cwd is not None else os.getcwd()) if e.usable]
    envs.sort(key=score, reverse=True)
    chosen = envs[:MAX_PROBED]
    if any(env.has_tensorflow for env in chosen):
        # TF's folder was seen: probe only those, which is exact and much faster.
        chosen = [env for env in chosen if env.has_tensorflow]
    from wizard.core.host import probe as probe_module

    def runner(exe: str, timeout: float, cancelled: Optional[Callable[[], bool]]) -> dict:
        return host.probe_python(exe, timeout=timeout, cancelled=cancelled)

    results = probe_module.probe_many(
        [env.executable for env in chosen],
        timeout=timeout,
        max_workers=min(4, os.cpu_count() or 2),
        cancelled=cancelled,
        runner=runner,
    )
    if probes is not None:
        probes.update(results)
    for env in chosen:
        host.note_python(env.executable, score(env))
    candidates = [(env.executable, results.get(env.executable), score(env)) for env in chosen]
    return pick(candidates, recommended_python_range(host), active_executables(host, candidates))
