"""Reusable widgets: status badge, finding card, facts view, progress area, demo banner.

pyqtgraph (the monitor's live plots, a later issue) is only ever imported in this package."""
