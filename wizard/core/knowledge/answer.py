"""``gpu-wizard compat``: one answer object (JSON-ready) and its English rendering."""

from __future__ import annotations

from typing import Any, Optional

from wizard.core.knowledge import compat as c
from wizard.core.knowledge.versions import compare_versions, parse_version, series

_OS_NAMES = {"windows": "native Windows", "linux": "Linux", "wsl2": "WSL2"}


def compat_answer(
    tf: Optional[str] = None, cuda: Optional[str] = None, os_kind: str = "linux"
) -> dict[str, Any]:
    """What a TF release needs on ``os_kind`` (``tf``), which TF releases were built for a CUDA
    version (``cuda`` only), or the recommended TF (neither). Raises ValueError for a version
    the tables do not know."""
    c.check_os_kind(os_kind)
    # None means "not given"; an empty or malformed value is an error, never the default.
    if cuda is not None:
        cuda = c.parse_cuda_query(cuda)
    if tf is not None:
        return _tf_answer(c.parse_tf_query(tf, os_kind), cuda, os_kind, recommended=False)
    if cuda is not None:
        return _cuda_answer(cuda, os_kind)
    recommended = c.parse_tf_query(c.recommended_tf(os_kind), os_kind)
    return _tf_answer(recommended, None, os_kind, recommended=True)


def _tf_answer(
    query: c.TfQuery, cuda: Optional[str], os_kind: str, recommended: bool
) -> dict[str, Any]:
    tf = query.series
    requirement = c.tf_requirement(tf, os_kind)
    if requirement is None:
        raise ValueError(c.unknown_tf_message(query.text, os_kind))
    driver = c.min_driver(requirement.cuda, os_kind) if requirement.cuda else None
    cc = c.compute_capability_requirement(requirement.series)
    notes = ([str(query.note)] if query.note else []) + list(requirement.notes)
    notes += c.install_notes(tf, os_kind)
    if driver:
        notes.extend(driver.notes)
    if os_kind == "wsl2" and requirement.pip_cuda:
        notes.extend(_facts("WSL2 requirements for TF"))
    answer: dict[str, Any] = {
        "query": {"tf": None if recommended else query.text, "cuda": cuda, "os": os_kind},
        "tensorflow": query.shown,
        "series": requirement.series,
        "os": os_kind,
        "recommended": recommended,
        "gpu_support": requirement.gpu_support,
        "cuda": requirement.cuda,
        "cudnn": requirement.cudnn,
        "python": requirement.python,
        "pip_cuda": requirement.pip_cuda,
        "package": requirement.package,
        "install_command": c.install_command(tf, os_kind),
        "min_driver": driver.toolkit if driver else None,
        "min_driver_compat": driver.compat if driver else None,
        "min_driver_release": f"CUDA {requirement.cuda} {driver.release}"
        if driver and driver.release
        else None,
        "min_compute_capability": cc["min_cc"] if cc else None,
        "effective_min_compute_capability": cc["effective_min_cc"] if cc else None,
        "and_cuda_pins": c.and_cuda_pins(requirement.series) if requirement.pip_cuda else None,
        "last_windows_gpu_tf": c.last_windows_gpu_tf(),
        "links": _links(requirement, os_kind),
        "notes": _unique(notes + (cc["notes"] if cc else [])),
        "sources": {
            "tensorflow": requirement.source,
            "driver": driver.source if driver else None,
            "compute_capability": cc["source"] if cc else None,
        },
    }
    if recommended:
        answer["reason"] = str(c.choose_target(os_kind).reason)
    if cuda:
        matches = requirement.cuda is not None and series(cuda) == series(requirement.cuda)
        answer["cuda_matches"] = matches
        if requirement.cuda and not matches:
            answer["notes"].insert(
                0,
                f"TF {requirement.series} was built and tested with CUDA {requirement.cuda}, "
                f"not {series(cuda)}: install CUDA {requirement.cuda}.",
            )
    return answer


def _links(requirement: c.TfRequirement, os_kind: str) -> dict[str, Optional[str]]:
    system_cuda = requirement.gpu_support and not requirement.pip_cuda and requirement.cuda
    return {
        "driver": c.driver_download_url() if requirement.gpu_support else None,
        "cuda": c.cuda_download_url(requirement.cuda, os_kind) if system_cuda else None,
        "cudnn": c.cudnn_download_url(requirement.cudnn, requirement.cuda)
        if system_cuda and requirement.cudnn
        else None,
    }


def _facts(topic: str) -> list[str]:
    return [
        c.public_text(f["fact"])
        for f in c.compat_data().get("platform_facts", [])
        if f["topic"] == topic
    ]


def _cuda_answer(cuda: str, os_kind: str) -> dict[str, Any]:
    minor = series(cuda)
    rows = c.tf_versions_for_cuda(cuda, os_kind)
    known_cuda = c.compat_data()["cuda_min_driver_ga"]
    if not rows and minor not in known_cuda:
        ordered = sorted(known_cuda, key=parse_version)
        raise ValueError(
            f"CUDA {cuda} is not in the compatibility table (known: {ordered[0]} ... "
            f"{ordered[-1]}); see gpu-wizard compat --os {os_kind}"
        )
    driver = c.min_driver(cuda, os_kind)
    notes = list(driver.notes)
    if not rows:
        notes.append(f"No official TensorFlow build for {_OS_NAMES[os_kind]} uses CUDA {minor}.")
    pip_first = c.and_cuda_first_tf()
    tf_rows = [
        {
            "tf": row["tf"],
            "cudnn": row["cudnn"],
            "python": row["python"],
            "pip_cuda": os_kind != "windows" and compare_versions(row["series"], pip_first) >= 0,
            "source": c.public_text(row["source"]),
        }
        for row in rows
    ]
    return {
        "query": {"tf": None, "cuda": cuda, "os": os_kind},
        "tensorflow": [row["tf"] for row in tf_rows],
        "os": os_kind,
        "gpu_support": bool(rows),
        "cuda": minor,
        "cudnn": _unique(row["cudnn"] for row in tf_rows),
        "python": _unique(row["python"] for row in tf_rows),
        "tf_rows": tf_rows,
        "min_driver": driver.toolkit,
        "min_driver_compat": driver.compat,
        "min_driver_release": f"CUDA {minor} {driver.release}" if driver.release else None,
        "links": {
            "driver": c.driver_download_url(),
            "cuda": c.cuda_download_url(cuda, os_kind),
        },
        "notes": notes,
        "sources": {"driver": driver.source},
    }


def _unique(values: Any) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def compat_text(answer: dict[str, Any]) -> str:
    """A readable multi-line English rendering of :func:`compat_answer`, sources last."""
    cuda_mode = isinstance(answer.get("tensorflow"), list)
    lines = _cuda_text(answer) if cuda_mode else _tf_text(answer)
    if answer.get("notes"):
        lines.append("")
        lines.append("Notes:")
        lines.extend(f"  - {note}" for note in answer["notes"])
    sources = {k: v for k, v in (answer.get("sources") or {}).items() if v}
    if sources:
        lines.append("")
        lines.append("Sources:")
        lines.extend(f"  - {k.replace('_', ' ')}: {v}" for k, v in sources.items())
    return "\n".join(lines)


def _row(label: str, value: Any) -> str:
    return f"  {(label + ':') if label else '':<16}{value}"


def _driver_line(answer: dict[str, Any]) -> str:
    toolkit, compat = answer.get("min_driver"), answer.get("min_driver_compat")
    parts = []
    if toolkit:
        release = answer.get("min_driver_release")
        parts.append(f">= {toolkit}" + (f" (minimum of the {release} toolkit)" if release else ""))
    else:
        parts.append("no toolkit minimum published")
    if compat:
        parts.append(f"floor >= {compat} with CUDA minor-version compatibility")
    return "; ".join(parts)


def _tf_text(answer: dict[str, Any]) -> list[str]:
    os_name = _OS_NAMES[answer["os"]]
    title = f"TensorFlow {answer['tensorflow']} on {os_name}"
    if answer.get("recommended"):
        title += f" ({answer.get('reason', 'recommended')})"
    lines = [title]
    links = answer.get("links") or {}
    if not answer["gpu_support"]:
        lines.append(_row("GPU support", "no (CPU only)"))
        lines.append(_row("Python", answer["python"]))
        lines.append(
            _row(
                "For the GPU",
                f"TF {answer['last_windows_gpu_tf']} ({answer['install_command']}) or WSL2",
            )
        )
        return lines
    lines.append(_row("GPU support", "yes"))
    if answer["pip_cuda"]:
        lines.append(_row("CUDA", f"{answer['cuda']} (from pip: tensorflow[and-cuda])"))
        lines.append(_row("cuDNN", f"{answer['cudnn']} (from pip)"))
    else:
        lines.append(_row("CUDA", _with_link(answer["cuda"], links.get("cuda"))))
        lines.append(_row("cuDNN", _with_link(answer["cudnn"], links.get("cudnn"))))
    lines.append(_row("Python", answer["python"]))
    lines.append(_row("NVIDIA driver", _driver_line(answer)))
    if links.get("driver"):
        lines.append(_row("", links["driver"]))
    if answer.get("min_compute_capability"):
        cc = answer["min_compute_capability"]
        effective = answer.get("effective_min_compute_capability")
        text = f">= {cc}"
        if effective and effective != cc:
            text += f" (in practice >= {effective})"
        lines.append(_row("GPU", f"compute capability {text}"))
    lines.append(_row("Install", answer["install_command"]))
    if answer.get("and_cuda_pins"):
        pins = answer["and_cuda_pins"]
        key = next((k for k in pins if k.startswith("nvidia-cudnn")), None)
        runtime = next((k for k in pins if k.startswith("nvidia-cuda-runtime")), None)
        shown = [f"{k}{pins[k]}" for k in (runtime, key) if k]
        lines.append(_row("pip pins", ", ".join(shown) + f" (+{len(pins) - len(shown)} more)"))
    return lines


def _with_link(value: Any, url: Optional[str]) -> str:
    return f"{value}  ({url})" if url else str(value)


def _cuda_text(answer: dict[str, Any]) -> list[str]:
    os_name = _OS_NAMES[answer["os"]]
    lines = [f"CUDA {answer['cuda']} on {os_name}"]
    if answer["tensorflow"]:
        lines.append(_row("TensorFlow", ", ".join(answer["tensorflow"])))
        for row in answer["tf_rows"]:
            how = "CUDA from pip" if row["pip_cuda"] else "system CUDA"
            lines.append(
                f"    TF {row['tf']}: cuDNN {row['cudnn']}, Python {row['python']} ({how})"
            )
    else:
        lines.append(_row("TensorFlow", "no official build uses this CUDA version"))
    lines.append(_row("NVIDIA driver", _driver_line(answer)))
    lines.append(_row("Download", answer["links"]["cuda"]))
    return lines
