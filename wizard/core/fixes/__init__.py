"""Fixes: what the wizard changes on a machine, shown first, applied with a journal, undone.

A fix is a :class:`~wizard.core.fixes.plan.Plan`: every folder to create, every file to write
(its destination and whether it replaces one), every variable to change (old and new value),
in words in every language (:meth:`Plan.lines`). :func:`~wizard.core.fixes.journal.apply` runs it
through the Host with a journal and backups in the user state folder; ``undo`` puts back the
exact previous state; an unfinished journal (a crash mid-apply) is found at the next start and
finished or rolled back. Plan builders: ``cudnn`` (an NVIDIA archive, zlibwapi.dll), ``env``
(PATH, CUDA_PATH, LD_LIBRARY_PATH); ``registry`` maps a finding's action to its builder.
Fixes that run a program instead of writing files: ``packages`` (pip and conda in the chosen
environment) and ``cuda_installer`` (NVIDIA's CUDA installer, silent, toolkit only), mapped by
``registry.RUNS``.
"""
