"""A sample library with declared dependencies (six, and one no package source has)."""
