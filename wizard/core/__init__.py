"""The Qt-free engine: everything that knows about GPUs, versions and the machine."""
