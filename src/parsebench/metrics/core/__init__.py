"""The interface every method shares: the Method, counts that add, scores from sums, resampling."""
