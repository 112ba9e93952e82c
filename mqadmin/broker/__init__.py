"""The development broker process."""
