"""The shapes of a machine profile (DESIGN section 3) and of the environment probe's output
(section 4), checked before any layer reads them.

A layer may then trust the types it reads: ``nvml.cuda_driver_version`` is an integer, a GPU's
``name`` is text or null, ``probe.tensorflow.gpus`` is a list of objects. Anything else is refused
at load with one line naming the key (``nvml.gpus[0].index must be an integer, not str``), instead
of a traceback or a wrong verdict deep inside a layer.

The schema is written as small Python values (:class:`Obj`, :class:`ListOf`, ...) rather than as
JSON Schema: the checks are few, the messages are ours, and nothing is added to the bundle.
Objects accept keys the schema does not name (profiles and probes may grow), but every named key
has its type checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


class SchemaError(ValueError):
    """A value that does not fit; ``path`` is where (``nvml.gpus[0].name``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"key '{path}' {message}" if path else f"the document {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True)
class Scalar:
    """One of the JSON scalar types, by name."""

    kind: str  # "string" | "integer" | "number" | "boolean" | "null"


@dataclass(frozen=True)
class Enum:
    values: tuple[Any, ...]


@dataclass(frozen=True)
class ListOf:
    item: Schema
    min_items: int = 0
    max_items: int | None = None


@dataclass(frozen=True)
class MapOf:
    """An object with free keys (file paths, variable names), each value of one shape."""

    value: Schema


@dataclass(frozen=True)
class Obj:
    required: dict[str, Schema] = field(default_factory=dict)
    optional: dict[str, Schema] = field(default_factory=dict)


@dataclass(frozen=True)
class OneOf:
    options: tuple[Schema, ...]


@dataclass(frozen=True)
class AnyValue:
    pass


Schema = Union[Scalar, Enum, ListOf, MapOf, Obj, OneOf, AnyValue]

STR, INT, NUM, BOOL, NULL = (Scalar(k) for k in ("string", "integer", "number", "boolean", "null"))
ANY = AnyValue()


def nullable(schema: Schema) -> OneOf:
    return OneOf((NULL, schema))


_NAMES = {"string": "text", "integer": "an integer", "number": "a number",
          "boolean": "true or false", "null": "null"}


def _describe(schema: Schema) -> str:
    if isinstance(schema, Scalar):
        return _NAMES[schema.kind]
    if isinstance(schema, Enum):
        return "one of " + ", ".join(_json(v) for v in schema.values)
    if isinstance(schema, ListOf):
        return "a list"
    if isinstance(schema, (Obj, MapOf)):
        return "an object"
    if isinstance(schema, OneOf):
        return " or ".join(_describe(option) for option in schema.options)
    return "any value"


def _json(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _scalar_fits(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str)


def validate(value: Any, schema: Schema, path: str = "") -> None:
    """Raise :class:`SchemaError` at the first place ``value`` does not fit ``schema``."""
    if isinstance(schema, AnyValue):
        return
    if isinstance(schema, OneOf):
        errors = []
        for option in schema.options:
            try:
                validate(value, option, path)
                return
            except SchemaError as exc:
                errors.append(exc)
        # The deepest error says most (an object of the right kind with one bad key).
        deepest = max(errors, key=lambda e: len(e.path))
        if deepest.path != path:
            raise deepest
        raise SchemaError(path, f"must be {_describe(schema)}, not {_type_name(value)}")
    if isinstance(schema, Scalar):
        if not _scalar_fits(schema.kind, value):
            raise SchemaError(path, f"must be {_describe(schema)}, not {_type_name(value)}")
        return
    if isinstance(schema, Enum):
        if not any(v == value and type(v) is type(value) for v in schema.values):
            raise SchemaError(path, f"is {_json(value)}; expected {_describe(schema)}")
        return
    if isinstance(schema, ListOf):
        _validate_list(value, schema, path)
        return
    if not isinstance(value, dict):
        raise SchemaError(path, f"must be {_describe(schema)}, not {_type_name(value)}")
    if isinstance(schema, MapOf):
        for key, item in value.items():
            validate(item, schema.value, f"{path}[{key!r}]")
        return
    for key, item_schema in schema.required.items():
        if key not in value:
            raise SchemaError(_child(path, key), "is missing")
        validate(value[key], item_schema, _child(path, key))
    for key, item_schema in schema.optional.items():
        if key in value:
            validate(value[key], item_schema, _child(path, key))


def _validate_list(value: Any, schema: ListOf, path: str) -> None:
    if not isinstance(value, list):
        raise SchemaError(path, f"must be a list, not {_type_name(value)}")
    if len(value) < schema.min_items:
        raise SchemaError(path, f"must have at least {schema.min_items} item(s)")
    if schema.max_items is not None and len(value) > schema.max_items:
        raise SchemaError(path, f"must have at most {schema.max_items} item(s)")
    for index, item in enumerate(value):
        validate(item, schema.item, f"{path}[{index}]")


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# ======================================================================================
# the environment probe (DESIGN section 4)
# ======================================================================================

OPT_STR = nullable(STR)
OPT_INT = nullable(INT)
OPT_BOOL = nullable(BOOL)
CC_PAIR = ListOf(INT, min_items=2, max_items=2)

PLACED_RUN = nullable(Obj(optional={"ok": BOOL, "device": OPT_STR, "error": OPT_STR}))

TF_PROBE = Obj(
    optional={
        "imported": BOOL,
        "error": OPT_STR,
        "version": OPT_STR,
        "built_with_cuda": OPT_BOOL,
        "build_info": nullable(MapOf(ANY)),
        "gpus": ListOf(Obj(optional={
            "name": OPT_STR, "device_name": OPT_STR, "compute_capability": nullable(CC_PAIR),
        })),
        "matmul": PLACED_RUN,
        "conv": PLACED_RUN,
    }
)

TORCH_PROBE = Obj(
    optional={
        "version": OPT_STR,
        "cuda": OPT_STR,
        "cudnn": nullable(OneOf((INT, STR))),
        "available": BOOL,
        "devices": ListOf(Obj(optional={
            "index": INT, "name": OPT_STR, "compute_capability": nullable(CC_PAIR),
        })),
        "arch_list": ListOf(STR),
        "error": OPT_STR,
        "matmul": PLACED_RUN,
    }
)

PROBE = Obj(
    optional={
        "probe": STR,
        "error": OPT_STR,
        "error_kind": OPT_STR,
        "python": nullable(Obj(optional={
            "version": STR, "bits": INT, "executable": STR, "prefix": STR,
            "base_prefix": STR, "conda": BOOL, "venv": BOOL,
        })),
        "packages": MapOf(OPT_STR),
        "nvidia_packages": MapOf(OPT_STR),
        "env": MapOf(OPT_STR),
        "tensorflow": nullable(TF_PROBE),
        "torch": nullable(TORCH_PROBE),
        "log": STR,
        "errors": MapOf(ANY),
    }
)


# ======================================================================================
# the machine profile (DESIGN section 3)
# ======================================================================================

NVML_ERRORS = (
    "library_not_found",
    "driver_not_loaded",
    "driver_library_mismatch",
    "no_permission",
    "unknown",
)

NVML_GPU = Obj(
    required={"index": INT},
    optional={
        "name": OPT_STR,
        "uuid": OPT_STR,
        "pci_bus_id": OPT_STR,
        "pci_device_id": OPT_STR,
        "compute_capability": nullable(CC_PAIR),
        "memory_total_bytes": OPT_INT,
        "is_laptop": BOOL,
        "error": OPT_STR,
    },
)

OPT_NUM = nullable(NUM)
# The monitor's recorded samples (wizard/core/monitor.py): static facts per GPU, then ticks
# played in a loop, each with the fields of a live sample (null: not available).
MONITOR_PROCESS = Obj(optional={"pid": INT, "memory_used": OPT_INT, "name": OPT_STR,
                                "command": OPT_STR})
MONITOR_GPU = Obj(optional={
    "index": INT, "error": OPT_STR, "detail": OPT_STR, "name": OPT_STR,
    "util_gpu": OPT_INT, "util_memory": OPT_INT, "memory_used": OPT_INT, "memory_total": OPT_INT,
    "temperature": OPT_INT, "power_w": OPT_NUM, "power_limit_w": OPT_NUM, "sm_clock": OPT_INT,
    "memory_clock": OPT_INT, "fan": OPT_INT, "pstate": OPT_INT, "clock_reasons": OPT_INT,
    "processes": ListOf(MONITOR_PROCESS),
})
MONITOR_STATIC = Obj(optional={
    "name": OPT_STR, "uuid": OPT_STR, "memory_total": OPT_INT, "power_limit_default_w": OPT_NUM,
    "power_limit_min_w": OPT_NUM, "power_limit_max_w": OPT_NUM, "max_sm_clock": OPT_INT,
    "max_memory_clock": OPT_INT, "pcie_gen": OPT_INT, "pcie_width": OPT_INT,
    "is_laptop": OPT_BOOL,
})
MONITOR = Obj(optional={
    "interval_s": NUM,
    "static": ListOf(MONITOR_STATIC),
    "ticks": ListOf(Obj(optional={"t": NUM, "error": OPT_STR, "detail": OPT_STR,
                                  "gpus": ListOf(MONITOR_GPU)})),
})

PROFILE = Obj(
    required={
        "platform": Obj(
            required={"system": Enum(("windows", "linux"))},
            optional={"release": STR, "arch": STR, "wsl": Enum((None, 1, 2)), "distro": OPT_STR},
        ),
    },
    optional={
        "format": STR,
        "name": STR,
        "description": STR,
        "env": MapOf(STR),
        "registry": MapOf(MapOf(ListOf(ANY, min_items=2, max_items=2))),
        "files": MapOf(OPT_STR),
        "denied": ListOf(STR),
        "commands": ListOf(Obj(
            required={"argv": ListOf(STR, min_items=1)},
            optional={"returncode": OPT_INT, "stdout": STR, "stderr": STR, "timed_out": BOOL},
        )),
        "nvml": Obj(
            optional={
                "error": nullable(Enum(NVML_ERRORS)),
                "detail": OPT_STR,
                "driver_version": OPT_STR,
                "cuda_driver_version": OPT_INT,
                "nvml_version": OPT_STR,
                "gpus": ListOf(NVML_GPU),
            }
        ),
        "pci": ListOf(Obj(optional={
            "vendor_id": STR, "device_id": STR, "name": OPT_STR, "label": OPT_STR,
            "driver": OPT_STR, "problem": OPT_STR, "class": STR, "slot": STR,
        })),
        "pythons": ListOf(Obj(
            required={"executable": STR},
            optional={"probe": nullable(PROBE), "score": INT},
        )),
        "monitor": nullable(MONITOR),
    },
)
