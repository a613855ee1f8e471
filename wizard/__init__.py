"""GPU Setup Wizard: get TensorFlow onto an NVIDIA GPU."""

__version__ = "0.1.0"
