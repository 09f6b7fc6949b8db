"""Robustness without (or beside) a gold key: Bigert et al., Kakkonen, Hashemi & Hwa,
calibration."""
