"""Stubs handed to the learner by `kata start` (read as files, never imported)."""
