"""Metrics. Each turns sentence pairs into counts; corpus scores come from summed counts."""
