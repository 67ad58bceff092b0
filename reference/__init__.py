"""Hidden reference solutions: the checker's ground truth, shown by `kata reveal`."""
