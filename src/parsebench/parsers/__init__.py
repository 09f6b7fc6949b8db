"""Parser adapters, the worker pool that runs them, and ``parsebench parse``."""
