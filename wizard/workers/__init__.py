"""Qt adapters that run core callables off the GUI thread. Only QtCore is imported here."""

from wizard.workers.base import FunctionWorker, WorkerError, WorkerSignals
from wizard.workers.manager import WorkerManager

__all__ = ["FunctionWorker", "WorkerError", "WorkerManager", "WorkerSignals"]
