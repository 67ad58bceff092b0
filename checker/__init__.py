"""kata's engine: the catalog, the checker and its reports."""
