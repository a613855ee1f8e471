"""Queries over the compatibility tables in ``resources/compat.json``.

The tables come from ``shared/data/compat-sources.json`` (``scripts/build_compat.py``) and keep
each row's ``source``; the functions here only select rows, they hold no version numbers of their
own. TF versions match by release series: "2.10", "2.10.0" and "2.10.1" all mean the 2.10.x row.
``os_kind`` is "windows", "linux" or "wsl2"; WSL2 uses the Linux TF table and the Windows driver
column (the Windows driver serves the GPU inside WSL2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from wizard.core import messages
from wizard.core.knowledge.versions import (
    compare_versions,
    parse_version,
    series,
    try_parse_version,
)
from wizard.core.messages import Message, msg
from wizard.core.model import Target
from wizard.resources import load_json

OS_KINDS = ("windows", "linux", "wsl2")

DRIVER_DOWNLOAD_URL = "https://www.nvidia.com/Download/index.aspx"
TF_PIP_URL = "https://www.tensorflow.org/install/pip"
"""TensorFlow's pip install guide (Linux, WSL2 and native Windows sections)."""
CUDNN_ARCHIVE_URL = "https://developer.nvidia.com/rdp/cudnn-archive"
CUDNN_DOWNLOADS_URL = "https://developer.nvidia.com/cudnn-downloads"
CUDA_ARCHIVE_URL = "https://developer.nvidia.com/cuda-toolkit-archive"

# TF 2.1 release notes: "The tensorflow pip package now includes GPU support by default (same as
# tensorflow-gpu) for both Linux and Windows." Before 2.1 the GPU build is tensorflow-gpu.
FIRST_TF_WITH_GPU_IN_TENSORFLOW_PACKAGE = "2.1"


def compat_data() -> dict[str, Any]:
    """The whole normalised table (cached by :func:`wizard.resources.load_json`)."""
    data = load_json("compat.json")
    if data.get("format") != "gpu-wizard/compat@1":
        raise ValueError(
            "resources/compat.json has an unknown format; rebuild it with "
            "python scripts/build_compat.py"
        )
    return data


# Maintainer notes inside the data's source strings: "(crawl id 70889381901)",
# "(inference, see uncertain)", "(not read in a source - see uncertain)". The rows keep them;
# nothing shown to a user carries them.
_MAINTAINER_PARENTHETICAL = re.compile(
    r"\s*\((?:[^()]*?)(?:crawl id|see uncertain|\binference\b|not read in)[^()]*\)",
    re.IGNORECASE,
)


def public_text(text: Optional[str]) -> Optional[str]:
    """``text`` (a row's source or fact) without the maintainers' own notes, for users."""
    if text is None:
        return None
    return _MAINTAINER_PARENTHETICAL.sub("", str(text)).strip()


Note = Union[Message, str]
"""A note for the user: a message, or a data text the catalogue does not have (English)."""


def data_note(message_id: str, text: Optional[str]) -> Note:
    """A text from the tables (a platform fact, a row's caveat) as the catalogue's message
    ``message_id`` when the catalogue's English is that very text, else the text itself: a note
    whose data changed is never shown in an outdated translation."""
    public = public_text(text) or ""
    if messages.has(message_id) and messages.template(message_id) == public:
        return msg(message_id)
    return public


def check_os_kind(os_kind: str) -> str:
    if os_kind not in OS_KINDS:
        raise ValueError(f"unknown OS {os_kind!r}: use one of {', '.join(OS_KINDS)}")
    return os_kind


def tables_os(os_kind: str | None) -> str:
    """The tables a TensorFlow version named for ``os_kind`` is checked against: macOS and an
    OS not known use Linux's (``explain --tf``, the GUI's explain dialog)."""
    return os_kind if os_kind in ("windows", "wsl2") else "linux"


# --- TensorFlow -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TfRequirement:
    """What one TF release needs on one platform."""

    tf: str
    """The table's version for the series, e.g. "2.10.0" (also for a query "2.10.1")."""
    cuda: Optional[str]
    cudnn: Optional[str]
    python: Optional[str]
    gpu_support: bool
    pip_cuda: bool
    """CUDA and cuDNN come from pip wheels (``tensorflow[and-cuda]``): no system toolkit needed."""
    package: str
    """The PyPI distribution that carries the GPU build ("tensorflow", or "tensorflow-gpu" before
    2.1); the table's own spelling is in ``table_package``."""
    source: str
    series: str = ""
    os_kind: str = ""
    table_package: str = ""
    notes: tuple[Note, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tf": self.tf,
            "series": self.series,
            "os": self.os_kind,
            "cuda": self.cuda,
            "cudnn": self.cudnn,
            "python": self.python,
            "gpu_support": self.gpu_support,
            "pip_cuda": self.pip_cuda,
            "package": self.package,
            "table_package": self.table_package,
            "notes": [str(note) for note in self.notes],
            "source": self.source,
        }


def tf_table(os_kind: str) -> list[dict[str, Any]]:
    """The TF rows for a platform, newest first (Windows table for native Windows)."""
    check_os_kind(os_kind)
    return compat_data()["tensorflow"]["windows" if os_kind == "windows" else "linux"]


def known_tf_versions(os_kind: str = "linux") -> list[str]:
    """The release series in the table, oldest first ("1.0" ... "2.21")."""
    return [row["series"] for row in reversed(tf_table(os_kind))]


def _tf_series(tf: str) -> Optional[str]:
    parsed = try_parse_version(tf)
    if parsed is None:
        return None
    return series(tf)


def _row_for_series(rows: list[dict[str, Any]], tf_series: str) -> Optional[dict[str, Any]]:
    return next((row for row in rows if row["series"] == tf_series), None)


def last_windows_gpu_tf() -> str:
    """ "2.10": the last TF with GPU support on native Windows."""
    return compat_data()["windows_native_gpu_last_tf"]["tf"]


def and_cuda_first_tf() -> str:
    """ "2.14": the first TF with the ``[and-cuda]`` extra (CUDA from pip on Linux/WSL2)."""
    return compat_data()["and_cuda"]["first_tf"]


def _gpu_package(tf: str) -> str:
    if compare_versions(tf, FIRST_TF_WITH_GPU_IN_TENSORFLOW_PACKAGE) >= 0:
        return "tensorflow"
    return "tensorflow-gpu"


def _uses_pip_cuda(tf_series: str, os_kind: str) -> bool:
    return os_kind in ("linux", "wsl2") and compare_versions(tf_series, and_cuda_first_tf()) >= 0


def tf_requirement(tf: str, os_kind: str) -> Optional[TfRequirement]:
    """CUDA, cuDNN and Python for TF ``tf`` on ``os_kind``; None when the series is not in the
    table. On native Windows, TF newer than 2.10 answers with ``gpu_support=False`` and no CUDA."""
    check_os_kind(os_kind)
    tf_series = _tf_series(tf)
    if tf_series is None:
        return None
    if os_kind == "windows" and compare_versions(tf_series, last_windows_gpu_tf()) > 0:
        return _windows_cpu_only(tf_series)
    row = _row_for_series(tf_table(os_kind), tf_series)
    if row is None:
        return None
    pip_cuda = _uses_pip_cuda(tf_series, os_kind)
    notes: list[Note] = []
    source = row["source"]
    if pip_cuda:
        pins = and_cuda_pins(tf_series)
        notes.append(msg("compat.note.cuda_from_pip"))
        if pins is None:
            notes.append(msg("compat.note.no_pins", tf_series=tf_series))
        else:
            source += "; [and-cuda] pins: " + _and_cuda_row(tf_series)["source"]
    elif os_kind in ("linux", "wsl2"):
        notes.append(msg("compat.note.system_cuda", tf_series=tf_series, cuda=row["cuda"],
                         cudnn=row["cudnn"]))
    return TfRequirement(
        tf=row["tf"],
        cuda=row["cuda"],
        cudnn=row["cudnn"],
        python=row["python"],
        gpu_support=True,
        pip_cuda=pip_cuda,
        package=_gpu_package(row["tf"]),
        source=public_text(source) or "",
        series=tf_series,
        os_kind=os_kind,
        table_package=row["package"],
        notes=tuple(notes),
    )


def _windows_cpu_only(tf_series: str) -> Optional[TfRequirement]:
    """TF >= 2.11 on native Windows: a CPU-only build. Python range from the (shared) PyPI wheel
    table, i.e. the Linux row of the same release."""
    row = _row_for_series(tf_table("linux"), tf_series)
    if row is None:
        return None
    last = compat_data()["windows_native_gpu_last_tf"]
    return TfRequirement(
        tf=row["tf"],
        cuda=None,
        cudnn=None,
        python=row["python"],
        gpu_support=False,
        pip_cuda=False,
        package="tensorflow",
        source=public_text(f"{last['source']}; Python range: {row['source']}") or "",
        series=tf_series,
        os_kind="windows",
        table_package=row["package"],
        notes=(
            msg("compat.note.windows_cpu_only", last=last["tf"], tf_series=tf_series,
                python=_python_of_last_windows()),
        ),
    )


def _python_of_last_windows() -> str:
    row = _row_for_series(tf_table("windows"), last_windows_gpu_tf())
    return row["python"] if row else "3.7-3.10"


def recommended_tf(os_kind: str) -> str:
    """The TF to aim for when nothing is installed and nothing was asked for: on native Windows
    the last release with GPU support ("2.10.0"), on Linux and WSL2 the newest release."""
    check_os_kind(os_kind)
    if os_kind == "windows":
        row = _row_for_series(tf_table("windows"), last_windows_gpu_tf())
        if row is None:
            raise ValueError("resources/compat.json lacks the Windows row of the last GPU TF")
        return row["tf"]
    return tf_table(os_kind)[0]["tf"]


def unknown_tf_message(tf: str, os_kind: str) -> str:
    known = known_tf_versions(os_kind)
    return (
        f"TensorFlow {tf} is not in the compatibility table (known: {known[0]} ... {known[-1]}); "
        f"see gpu-wizard compat --os {os_kind}"
    )


def nearest_known_tf(tf: str, os_kind: str) -> Optional[str]:
    """The table's series nearest below ``tf`` (the newest one for a TF newer than the table,
    the oldest for one older than it); None when ``tf`` is not a version."""
    if try_parse_version(tf) is None:
        return None
    known = known_tf_versions("windows" if os_kind == "windows" else "linux")
    if os_kind == "windows":
        known = known + [s for s in known_tf_versions("linux") if s not in known]
        known.sort(key=parse_version)
    below = [s for s in known if compare_versions(s, tf) <= 0]
    return below[-1] if below else known[0]


# --- Versions as a user types them ----------------------------------------------------------

# "2.10", "2.10.1", "2.15.0.post1", "2.16.0rc0": digits only, a pre-release only after a full
# version. "2.x", "2.10.x", "12.abc", "v2.10" or "" are not versions.
_TF_QUERY = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+)(?:(?:a|b|rc)(\d+)|\.post\d+)?)?$")
_CUDA_QUERY = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")


@dataclass(frozen=True)
class TfQuery:
    """A TF version a user asked for (``--tf``), checked against the tables."""

    text: str
    """As given (surrounding blanks removed)."""
    series: str
    """The table's release series, "2.10"."""
    shown: str
    """The version to show: the release asked for ("2.10.1"), else the table's ("2.10.0")."""
    note: Optional[Message] = None
    """Set when the version is not itself in the tables (a release candidate) and the answer is
    that of its series: the user must be told."""


def tf_releases(tf_series: str, os_kind: str = "linux") -> list[str]:
    """The published releases of a series ("2.10" -> ["2.10.0", "2.10.1"]), oldest first: PyPI's
    release history plus the table's own row (the Windows table lists a "1.13.0")."""
    versions = list((compat_data().get("tf_releases") or {}).get("versions", []))
    tables = [tf_table(os_kind)] + ([tf_table("linux")] if os_kind == "windows" else [])
    versions += [row["tf"] for rows in tables for row in rows]
    found = {v for v in versions if series(v) == tf_series}
    return sorted(found, key=lambda v: (parse_version(v), v))


def _known_range(os_kind: str) -> str:
    known = known_tf_versions("linux" if os_kind == "windows" else os_kind)
    return f"{known[0]} ... {known[-1]}"


def parse_tf_query(text: str, os_kind: str) -> TfQuery:
    """Check a requested TF version strictly. Raises ValueError, naming the value and what is
    known, for anything that is not a published release or series in the tables: "2.x", "",
    "2.10.5" (2.10's releases are 2.10.0 and 2.10.1), "2.30". A release candidate of a known
    series ("2.16.0rc0") is answered for that series, with a ``note`` that says so."""
    check_os_kind(os_kind)
    given = str(text).strip()
    newest = recommended_tf(os_kind)
    example = f"give a release such as {series(newest)} or {newest}"
    match = _TF_QUERY.match(given)
    if not match:
        raise ValueError(
            f"TensorFlow {str(text)!r} is not a version number: {example} "
            f"(known series: {_known_range(os_kind)})"
        )
    major, minor, patch, pre = match.group(1), match.group(2), match.group(3), match.group(4)
    tf_series = f"{int(major)}.{int(minor)}"
    requirement = tf_requirement(tf_series, os_kind)
    if requirement is None:
        raise ValueError(unknown_tf_message(given, os_kind))
    releases = tf_releases(tf_series, os_kind)
    if patch is None:
        return TfQuery(given, tf_series, requirement.tf)
    listed = ", ".join(releases) or requirement.tf
    if pre is not None:
        note = msg("target.note.prerelease", given=given, tf_series=tf_series, listed=listed)
        return TfQuery(given, tf_series, given, note)
    if given not in releases:
        raise ValueError(
            f"TensorFlow {given} is not a release: the TF {tf_series} releases are {listed} "
            f"(or give just {tf_series})"
        )
    return TfQuery(given, tf_series, given)


def parse_cuda_query(text: str) -> str:
    """Check a requested CUDA version's form ("11.2" or "11.2.2"); returns it stripped. Raises
    ValueError, naming the value, for "11.x", "12.abc", "12" or ""."""
    given = str(text).strip()
    if not _CUDA_QUERY.match(given):
        known = sorted(compat_data()["cuda_min_driver_ga"], key=parse_version)
        hint = f"known: {known[0]} ... {known[-1]}"
        if given.isdigit():
            same = [v for v in known if v.split(".")[0] == given]
            if same:
                hint = f"CUDA {given}.x is one of {', '.join(same)}"
        raise ValueError(
            f"CUDA {str(text)!r} is not a version number: give major.minor such as 11.2 or "
            f"12.5 ({hint})"
        )
    return given


def os_name(os_kind: str) -> Message:
    """"native Windows", "Linux", "WSL2"."""
    return msg(f"target.os.{os_kind}")


def _and(first: Message, then: Optional[Message]) -> Message:
    """Two parts of a reason: ``first; then``."""
    return msg("target.reason.and", first=first, then=then) if then is not None else first


def choose_target(
    os_kind: str,
    requested: Optional[str] = None,
    installed: Optional[str] = None,
    installed_where: Optional[str] = None,
) -> Target:
    """The TF the check aims for: the one asked for (``--tf``), else the one installed in the
    chosen environment, else the recommended one. A requested version is checked strictly
    (:func:`parse_tf_query`: "2.x", "" or "2.10.5" raise ValueError); an installed version the
    table lacks maps to the nearest known release."""
    check_os_kind(os_kind)
    if requested is not None:
        query = parse_tf_query(requested, os_kind)
        requirement = tf_requirement(query.series, os_kind)
        assert requirement is not None  # parse_tf_query checked the series
        reason = _and(msg("target.reason.requested"), query.note)
        shown = query.shown
    elif installed and try_parse_version(installed) is not None:
        requirement = tf_requirement(installed, os_kind)
        reason = msg("target.reason.installed", python=installed_where)
        shown = installed
        if requirement is None:
            nearest = nearest_known_tf(installed, os_kind)
            requirement = tf_requirement(nearest, os_kind) if nearest else None
            if requirement is None:
                return _recommended_target(os_kind)
            reason = _and(reason, msg("target.reason.nearest_known", tf_series=series(installed),
                                      nearest=requirement.series))
    else:
        return _recommended_target(os_kind)
    if not requirement.gpu_support:
        reason = _and(reason, msg("target.reason.no_windows_gpu", tf_series=requirement.series,
                                  last=last_windows_gpu_tf()))
    return _target(requirement, shown, reason, os_kind)


def _recommended_target(os_kind: str) -> Target:
    requirement = tf_requirement(recommended_tf(os_kind), os_kind)
    assert requirement is not None  # the recommended row comes from the table itself
    if os_kind == "windows":
        reason = msg("target.reason.recommended_windows")
    else:
        reason = msg("target.reason.recommended", os=os_name(os_kind))
    return _target(requirement, requirement.tf, reason, os_kind)


def _target(requirement: TfRequirement, shown: str, reason: Message, os_kind: str) -> Target:
    return Target(
        tensorflow=shown,
        cuda=requirement.cuda,
        cudnn=requirement.cudnn,
        python=requirement.python,
        reason=reason,
        os=os_kind,
        pip_cuda=requirement.pip_cuda,
        gpu_supported=requirement.gpu_support,
    )


def tf_versions_for_cuda(cuda: str, os_kind: str) -> list[dict[str, Any]]:
    """The TF rows built with CUDA ``cuda`` (major.minor; "10" in the Windows table is 10.0),
    newest first. On native Windows only TF <= 2.10 counts."""
    wanted = series(cuda)
    rows = [row for row in tf_table(os_kind) if series(row["cuda"]) == wanted]
    if os_kind == "windows":
        last = last_windows_gpu_tf()
        rows = [row for row in rows if compare_versions(row["series"], last) <= 0]
    return rows


# --- [and-cuda] pins --------------------------------------------------------------------------


def _and_cuda_row(tf: str) -> Optional[dict[str, Any]]:
    tf_series = _tf_series(tf)
    if tf_series is None:
        return None
    return _row_for_series(compat_data()["tf_and_cuda_pip"], tf_series)


def and_cuda_pins(tf: str) -> Optional[dict[str, str]]:
    """The ``nvidia-*`` requirements ``tensorflow[and-cuda]`` pulls for ``tf`` (package ->
    specifier, e.g. ``{"nvidia-cudnn-cu12": "==9.3.0.75", ...}``); None before 2.14."""
    row = _and_cuda_row(tf)
    return dict(row["packages"]) if row else None


# --- Drivers ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DriverRequirement:
    """The NVIDIA driver a CUDA version needs on one platform.

    ``toolkit``: the minimum of that CUDA toolkit release (NVIDIA Table 3, the GA row of the minor,
    or the exact update when asked for "11.2.2"). ``compat``: the lower floor that minor-version
    compatibility allows for the whole CUDA major (11.x, 12.x, ...). None where NVIDIA publishes
    no number (Windows for CUDA 13, minor-version compatibility before CUDA 11)."""

    cuda: str
    toolkit: Optional[str]
    compat: Optional[str]
    source: str
    os_kind: str = ""
    release: Optional[str] = None
    notes: tuple[Note, ...] = field(default_factory=tuple)

    @property
    def minimum(self) -> Optional[str]:
        """The safe minimum to recommend: the toolkit's, else the compatibility floor."""
        return self.toolkit or self.compat

    def satisfied_by(self, driver: str) -> Optional[bool]:
        """True when ``driver`` meets the toolkit minimum; None when nothing is published."""
        return None if self.minimum is None else compare_versions(driver, self.minimum) >= 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "cuda": self.cuda,
            "os": self.os_kind,
            "toolkit": self.toolkit,
            "compat": self.compat,
            "release": self.release,
            "notes": [str(note) for note in self.notes],
            "source": self.source,
        }


def _driver_column(os_kind: str) -> str:
    return "windows" if check_os_kind(os_kind) in ("windows", "wsl2") else "linux"


def min_driver(cuda: str, os_kind: str) -> DriverRequirement:
    """Driver minimums for CUDA ``cuda`` on ``os_kind`` (WSL2 reads the Windows column)."""
    column = _driver_column(os_kind)
    data = compat_data()
    minor = series(cuda)
    toolkit_row = None
    if len(parse_version(cuda)) >= 3:
        toolkit_row = next(
            (
                row
                for row in data["cuda_min_driver"]
                if row["release_version"] and compare_versions(row["release_version"], cuda) == 0
            ),
            None,
        )
    toolkit_row = toolkit_row or data["cuda_min_driver_ga"].get(minor)
    major = str(parse_version(cuda)[0])
    compat_row = data["cuda_minor_compat"].get(major)
    notes: list[Note] = []
    sources: list[str] = []
    toolkit = compat = None
    release = None
    if toolkit_row is None:
        notes.append(msg("compat.note.cuda_not_in_table", cuda=minor))
    else:
        toolkit = toolkit_row[column]
        release = toolkit_row.get("release")
        sources.append(f"toolkit: {toolkit_row['source']}")
        if toolkit is None:
            notes.append(msg(f"compat.note.no_{column}_minimum", cuda=minor,
                             published=_as_published(toolkit_row, column)))
    if compat_row is not None:
        compat = compat_row.get(column)
        sources.append(f"minor-version compatibility: {compat_row['source']}")
        if compat is None and compat_row.get("user_windows_note") and column == "windows":
            notes.append(data_note(f"compat.data.windows_driver_note_cuda{major}",
                                   compat_row["user_windows_note"]))
    elif parse_version(cuda)[0] < 11:
        notes.append(msg("compat.note.no_minor_compat"))
    if os_kind == "wsl2":
        notes.append(msg("compat.note.wsl2_windows_driver"))
    return DriverRequirement(
        cuda=minor if len(parse_version(cuda)) < 3 else cuda,
        toolkit=toolkit,
        compat=compat,
        source=public_text("; ".join(sources)) or "no row in resources/compat.json",
        os_kind=os_kind,
        release=release,
        notes=tuple(notes),
    )


def _as_published(row: dict[str, Any], column: str) -> str:
    return str((row.get("as_published") or {}).get(column) or "N/A")


def max_cuda_for_driver(driver: str, os_kind: str) -> Optional[str]:
    """The newest CUDA minor whose toolkit minimum ``driver`` meets (None: older than all)."""
    column = _driver_column(os_kind)
    best = None
    for minor, row in compat_data()["cuda_min_driver_ga"].items():
        minimum = row[column]
        meets = bool(minimum) and compare_versions(driver, minimum) >= 0
        if meets and (best is None or compare_versions(minor, best) > 0):
            best = minor
    return best


# --- Compute capability -----------------------------------------------------------------------


def _cc_row(tf: str) -> Optional[dict[str, Any]]:
    tf_series = _tf_series(tf)
    if tf_series is None:
        return None
    for row in compat_data()["tf_min_compute_capability"]:
        for low, high in row["tf_spans"]:
            if compare_versions(tf_series, low) >= 0 and (
                high is None or compare_versions(tf_series, high) <= 0
            ):
                return row
    return None


def min_compute_capability(tf_version: str) -> Optional[str]:
    """The minimum compute capability the official TF wheels list for that release ("3.5",
    "6.0" for 2.17+); None when no row covers it."""
    row = _cc_row(tf_version)
    return row["min_cc"] if row else None


def _toolkit_min_sm(cuda: Optional[str]) -> tuple[Optional[str], Optional[dict[str, Any]]]:
    if not cuda:
        return None, None
    found: tuple[Optional[str], Optional[dict[str, Any]]] = (None, None)
    rows = sorted(
        compat_data()["cuda_toolkit_arch_support"], key=lambda r: parse_version(r["cuda"])
    )
    for row in rows:
        if row.get("min_sm") and compare_versions(row["cuda"], cuda) <= 0:
            found = (row["min_sm"], row)
    return found


def _caveat_id(row_name: str) -> str:
    """``compat.data.cc_caveat_2_17_and_later`` for the row "2.17 and later"."""
    slug = re.sub(r"[^a-z0-9]+", "_", row_name.lower()).strip("_")
    return f"compat.data.cc_caveat_{slug}"


def compute_capability_requirement(tf_version: str) -> Optional[dict[str, Any]]:
    """The documented minimum plus what the build's CUDA toolkit allows: TF 2.15/2.16 list 3.5,
    but their CUDA 12 builds cannot contain code below SM 5.0 (``effective_min_cc``)."""
    row = _cc_row(tf_version)
    if row is None:
        return None
    requirement = tf_requirement(tf_version, "linux")
    toolkit_min, arch_row = _toolkit_min_sm(requirement.cuda if requirement else None)
    effective = row["min_cc"]
    notes: list[Note] = []
    if toolkit_min and compare_versions(toolkit_min, effective) > 0:
        effective = toolkit_min
        notes.append(msg("compat.note.toolkit_min_cc", tf_series=series(tf_version),
                         cuda=requirement.cuda if requirement else None, cc=toolkit_min))
    open_ended = any(high is None for _, high in row["tf_spans"])
    if row.get("user_caveat") and (effective != row["min_cc"] or open_ended):
        notes.append(data_note(_caveat_id(row["tf"]), row["user_caveat"]))
    return {
        "tf": series(tf_version),
        "row": row["tf"],
        "min_cc": row["min_cc"],
        "effective_min_cc": effective,
        "unsupported_cc": list(row["unsupported_cc"]),
        "listed": row.get("listed"),
        "notes": notes,
        "source": public_text(
            row["source"] + (f"; toolkit: {arch_row['source']}" if arch_row else "")
        ),
    }


# --- cuDNN ------------------------------------------------------------------------------------


def _within(version: str, low: str, high: str) -> bool:
    """``version`` inside [low, high], compared at the precision the bounds are written in
    ("8.1.0.77" is inside "8.1"; "7.5.1.10" inside "7.5.1")."""
    width = max(len(parse_version(low)), len(parse_version(high)))
    value = parse_version(version)[:width]
    value = value + (0,) * (width - len(value))
    return parse_version(low) <= value <= parse_version(high)


def _entry_has_cuda(entry: dict[str, Any], cuda: str) -> bool:
    if entry.get("family"):
        return str(parse_version(cuda)[0]) == entry["family"]
    return _within(series(cuda), entry["from"], entry["to"])


def cudnn_supports_cuda(cudnn: str, cuda: str) -> Optional[bool]:
    """Whether NVIDIA lists cuDNN ``cudnn`` for CUDA ``cuda``; None when the tables do not say
    (no row for that cuDNN release, or only a partial one)."""
    rows = compat_data()["cudnn_cuda"]
    exact = [r for r in rows if _within(cudnn, r["cudnn_from"], r["cudnn_to"])]
    # Without a row for this exact release, neighbours of the same x.y can confirm support but
    # not rule it out (8.9.7 supports CUDA 12.3, which the 8.9.1-8.9.6 rows predate).
    matched = exact or [r for r in rows if series(r["cudnn_from"]) == series(cudnn)]
    if any(_entry_has_cuda(entry, cuda) for row in matched for entry in row["cuda"]):
        return True
    if not exact or any(row["partial"] for row in exact):
        return None
    return False


# --- Download pages and install commands ------------------------------------------------------


def cuda_download_url(cuda: str, os_kind: str) -> str:
    """NVIDIA's archive page of that toolkit release ("11.2" -> the 11.2.0 page), preselecting
    the platform where the page supports it (WSL2: the WSL-Ubuntu packages, no driver)."""
    check_os_kind(os_kind)
    pages = compat_data()["cuda_download_pages"]["pages"]
    numbers = parse_version(cuda)
    if len(numbers) >= 3 and numbers[0] >= 11:
        url = "https://developer.nvidia.com/cuda-{}-download-archive".format(
            "-".join(str(n) for n in numbers[:3])
        )
    else:
        url = pages.get(series(cuda), CUDA_ARCHIVE_URL)
    if url == CUDA_ARCHIVE_URL or numbers[0] < 11:
        return url
    params = {
        "windows": "target_os=Windows&target_arch=x86_64",
        "linux": "target_os=Linux&target_arch=x86_64",
        "wsl2": "target_os=Linux&target_arch=x86_64&Distribution=WSL-Ubuntu&target_version=2.0",
    }[os_kind]
    return f"{url}?{params}"


def cudnn_download_url(cudnn: str, cuda: Optional[str] = None) -> str:
    """cuDNN 9 has its own download page; older releases are in the archive."""
    return CUDNN_DOWNLOADS_URL if parse_version(cudnn)[0] >= 9 else CUDNN_ARCHIVE_URL


def driver_download_url() -> str:
    return DRIVER_DOWNLOAD_URL


def install_command(tf: str, os_kind: str) -> str:
    """The pip line that installs a GPU-capable TF ``tf`` for ``os_kind``."""
    check_os_kind(os_kind)
    requirement = tf_requirement(tf, os_kind)
    if requirement is None:
        raise ValueError(unknown_tf_message(tf, os_kind))
    tf_series = requirement.series
    if os_kind == "windows":
        if not requirement.gpu_support or tf_series == last_windows_gpu_tf():
            return f'pip install "tensorflow<{_next_series(last_windows_gpu_tf())}"'
        return f'pip install "{requirement.package}=={tf_series}.*"'
    if requirement.pip_cuda:
        if tf_series == series(recommended_tf(os_kind)):
            return 'pip install "tensorflow[and-cuda]"'
        return f'pip install "tensorflow[and-cuda]=={tf_series}.*"'
    return f'pip install "{requirement.package}=={tf_series}.*"'


def _next_series(tf_series: str) -> str:
    major, minor = parse_version(series(tf_series))[:2]
    return f"{major}.{minor + 1}"


def install_notes(tf: str, os_kind: str) -> list[Note]:
    """What goes with :func:`install_command` (legacy package names, the system CUDA needed)."""
    requirement = tf_requirement(tf, os_kind)
    if requirement is None:
        return []
    notes: list[Note] = []
    if os_kind == "windows" and requirement.gpu_support:
        notes.append(msg("compat.note.windows_needs", cuda=requirement.cuda,
                         cudnn=requirement.cudnn, python=requirement.python))
        if requirement.series == last_windows_gpu_tf():
            notes.append(msg("compat.note.legacy_gpu_name", tf_series=requirement.series))
    elif os_kind == "windows":
        notes.extend(requirement.notes)
    elif not requirement.pip_cuda:
        notes.append(msg("compat.note.needs_system_cuda", cuda=requirement.cuda,
                         cudnn=requirement.cudnn))
    return notes


def cuda_release_version(cuda: str) -> str:
    """The exact release the archive page of a minor installs: "11.2" -> "11.2.0"."""
    row = compat_data()["cuda_min_driver_ga"].get(series(cuda))
    return row["release_version"] if row else f"{series(cuda)}.0"


def strip_nvidia_prefix(name: str) -> str:
    return re.sub(r"^\s*nvidia\s+", "", name, flags=re.IGNORECASE)
