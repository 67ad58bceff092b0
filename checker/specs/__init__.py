"""Case families per kata: `checker.specs.<module>` builds the inputs the checker draws."""
