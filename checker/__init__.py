"""kata's checker, in three layers: `judge` (runs and judges a learner's file), `text` (the catalog and every
kata's words) and `app` (what a learner does with the results); `specs` (each kata's cases and mistakes) sits on
the judge. `errors` and `places` lie beneath all of them. pyproject.toml's import-linter contracts keep it so."""
